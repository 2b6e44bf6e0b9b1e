/**
 * Open Robot…: which files beside a URDF the main process reads for the renderer. Main parses
 * the URDF itself (never trusting the renderer to say what it references) and takes the mesh
 * and texture paths urdfReferencedFiles gives (relative, package:// and file:// resolved against
 * the URDF's file name, so package://pkg/meshes/a.stl of a robot copied out of its ROS package is
 * meshes/a.stl beside it). Only paths that stay inside the URDF's folder are read, each segment a
 * plain name that is not a dotfile (related-files.ts rules); handlers.ts reads them with lstat on
 * every component, so a symbolic link is refused.
 *
 * A URDF that does not parse references nothing: the renderer's loader reports what is wrong.
 */
import { parseUrdf } from '../sim/robot/urdf/parse-urdf';
import { urdfReferencedFiles } from '../sim/robot/urdf/load-urdf';
import { isAllowedRelatedName, RELATED_MAX_NAMES, RELATED_MAX_PARSE_BYTES } from './related-files';
import { LIMITS } from './ipc-contract';

/**
 * [bytes] Most bytes of referenced files (meshes, textures) main reads for one robot: four meshes
 * at the sim's per-mesh cap (MESH_MAX_BYTES, 64 MiB). Real robots carry a few MiB; the whole set is
 * held in main, copied over IPC and again into the worker, so this bounds three copies.
 */
export const ROBOT_MAX_RELATED_BYTES = 256 * 1024 * 1024;

/** Paths (relative to the URDF's folder, '/' separators) of the files the URDF `name` references. */
export function robotRelatedPaths(name: string, bytes: Uint8Array): string[] {
  if (bytes.length > RELATED_MAX_PARSE_BYTES) return [];
  let refs: ReturnType<typeof urdfReferencedFiles>;
  try {
    refs = urdfReferencedFiles(parseUrdf(bytes), name);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const r of refs) {
    const p = r.path;
    if (p.length > LIMITS.maxRelativePathLength || p.startsWith('/') || !p.split('/').every(isAllowedRelatedName)) continue;
    if (!out.includes(p)) out.push(p);
    if (out.length >= RELATED_MAX_NAMES) break;
  }
  return out;
}
