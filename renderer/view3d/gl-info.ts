/**
 * What kind of GL we draw with. Software rasterisers (SwiftShader, llvmpipe, Microsoft's WARP/Basic
 * Render Driver) are far slower, so the view draws coarser terrain meshes on them.
 */
import { TERRAIN_MESH_MAX_VERTICES, TERRAIN_MESH_MAX_VERTICES_SOFTWARE } from '../config';

const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software|basic render driver|warp/i;

export function isSoftwareRenderer(rendererName: string): boolean {
  return SOFTWARE_GL.test(rendererName);
}

/** Terrain vertex budget for a GL renderer name (WEBGL_debug_renderer_info, or '' when hidden). */
export function terrainVertexBudget(rendererName: string): number {
  return isSoftwareRenderer(rendererName) ? TERRAIN_MESH_MAX_VERTICES_SOFTWARE : TERRAIN_MESH_MAX_VERTICES;
}
