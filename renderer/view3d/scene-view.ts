/**
 * The 3D view: one three.js scene whose single `root` group carries the z-up → y-up conversion
 * (rotation −90° about x: sim (x, y, z) → three (x, z, −y)). Everything simulated — terrain,
 * bodies, contacts, overlays — lives under root in simulation coordinates; nothing else converts
 * axes. Picking: contacts by screen distance (markers are a few pixels wide), bodies and terrain
 * cells by ray casting.
 */
import * as THREE from 'three';
import { CONTACT_STRIDE } from '../../sim/dynamics/frame-layout';
import type { WorldInfo } from '../../sim/app/protocol';
import { ChaseCamera, type CameraMode } from './chase-camera';
import { makeSimRoot } from './sim-root';
import { createMapEdge, disposeMapEdge } from './map-edge';
import { yawOf } from './yaw';
import { createContactsView, type ContactsView } from './contacts-view';
import { createRobotView, type RobotView } from './robot-view';
import { buildRobotVisuals, type MeshBytes } from './robot-visuals';
import { isSoftwareRenderer, terrainVertexBudget } from './gl-info';
import { TerrainView, type PatchFetcher, type TerrainStats } from './terrain-view';
import { LOD_CHUNK_CELLS, LOD_CHUNK_CELLS_SOFTWARE } from '../config';
import type { ExactHeights } from '../inspect/terrain-heights';
import { OverlaysView } from './overlays-view';
import { RobotFraming } from './robot-framing';
import { SUN_DIRECTION } from './terrain-shading';
import type { Selection } from '../inspect/selection';

/** Terrain colour when the height gradient is off (a neutral grey-brown: relief reads from the shading). */
export const TERRAIN_PLAIN_COLOR = 0x8f8a7d;
/** [m] Length of the world-origin axes. */
export const WORLD_AXES_LENGTH = 1;

/** [px] A click this close to a contact marker's centre picks the contact. */
export const CONTACT_PICK_RADIUS_PX = 10;

export type PickResult =
  | { type: 'contact'; index: number }
  | { type: 'body'; body: number }
  | { type: 'cell'; i: number; j: number; point: [number, number, number] }
  | { type: 'none' };

export class SceneView {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly root = new THREE.Group();
  readonly chase: ChaseCamera;
  private terrain: TerrainView | null = null;
  /** The terrain's border line and fence (map-edge.ts): where a robot stops with a fault. */
  private mapEdge: THREE.Group | null = null;
  private robot: RobotView | null = null;
  private world: WorldInfo | null = null;
  readonly contacts: ContactsView;
  readonly overlays = new OverlaysView();
  /** x (red), y (green), z (blue) at the world origin, in the simulation frame (under root). */
  readonly worldAxes = new THREE.AxesHelper(WORLD_AXES_LENGTH);
  private terrainColors: 'height' | 'plain' | 'slope' = 'height';
  private terrainContours = false;
  private readonly canvas: HTMLCanvasElement;
  private readonly sun: THREE.DirectionalLight;
  private readonly raycaster = new THREE.Raycaster();
  private readonly v = new THREE.Vector3();
  /** Body the camera follows (the base, or a wheel in the 'wheel' preset). */
  followBody = 0;
  /** The GL renderer's name ('' when the browser hides it). */
  readonly glRenderer: string;
  readonly softwareGL: boolean;

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    // No antialias and pixel ratio 1: the app must stay interactive on software GL (SwiftShader).
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: false, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(1);
    const gl = this.renderer.getContext();
    const dbg = gl.getExtension('WEBGL_debug_renderer_info');
    const name: unknown = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    this.glRenderer = typeof name === 'string' ? name : '';
    this.softwareGL = isSoftwareRenderer(this.glRenderer);
    this.scene.background = new THREE.Color(0x9fc4e8);
    makeSimRoot(this.root);
    this.scene.add(this.root);
    this.scene.add(new THREE.HemisphereLight(0xdfefff, 0x4a4030, 0.9));
    this.sun = new THREE.DirectionalLight(0xffffff, 2.0);
    // Low, from the side: long shading on slopes makes relief readable without shadows (three's
    // y-up frame: sim (x, y, z) → (x, z, −y); the terrain's hillshade uses the same direction).
    this.sun.position.set(SUN_DIRECTION[0] * 50, SUN_DIRECTION[2] * 50, -SUN_DIRECTION[1] * 50);
    this.scene.add(this.sun);
    this.contacts = createContactsView();
    this.root.add(this.contacts.group);
    this.root.add(this.overlays.group);
    this.worldAxes.name = 'world-axes';
    // Drawn over the terrain, so the origin shows even where the ground lies above z = 0.
    (this.worldAxes.material as THREE.Material).depthTest = false;
    this.worldAxes.renderOrder = 12;
    this.root.add(this.worldAxes);
    this.chase = new ChaseCamera(1, canvas);
    this.resize();
  }

  /** Why some URDF visuals of the current world are not drawn. */
  visualWarnings: string[] = [];
  private showCollision = false;

  /**
   * Replaces the world's geometry. The terrain's chunks come from `fetchPatch` (the worker) as the
   * camera needs them; `heights` gives the overlays exact heights. `meshBytes` gives the URDF
   * visual mesh files (bodies with visuals show them instead of their collision shapes).
   */
  setWorld(info: WorldInfo, fetchPatch: PatchFetcher, heights: ExactHeights, meshBytes: MeshBytes = () => undefined): void {
    this.clearWorld();
    this.world = info;
    this.terrain = new TerrainView(info.terrain, fetchPatch, terrainVertexBudget(this.glRenderer), this.softwareGL ? LOD_CHUNK_CELLS_SOFTWARE : LOD_CHUNK_CELLS, info.terrainMaterials);
    this.terrain.onExactPatch = (p) => heights.offer(p);
    this.root.add(this.terrain.group);
    this.mapEdge = createMapEdge(info.terrain);
    this.root.add(this.mapEdge);
    this.applyTerrainColors();
    const visuals = info.visuals && info.visuals.length > 0 ? buildRobotVisuals(info.visuals, meshBytes) : undefined;
    this.visualWarnings = visuals?.warnings ?? [];
    this.robot = createRobotView(info.bodies, visuals);
    this.robot.setShowCollision(this.showCollision);
    this.root.add(this.robot.group);
    this.overlays.setTerrain(heights, info.bodies);
    this.contacts.update(new Float32Array(0), new Int32Array(0));
    this.followBody = this.baseIndex();
    this.framing.setWorld(info);
    this.chase.setScenarioView(info.camera ?? null);
  }

  /** The robot's bodies and their bounding box each frame (the chase camera frames the whole robot). */
  private readonly framing = new RobotFraming();
  /** The preset the settings asked for last (null before the first): a change ends a scenario's view. */
  private preset: CameraMode | null = null;

  /** The terrain's chunks and memory (null before a world). */
  /** [m] The camera's remaining smoothing lag (chase-camera.ts `lag`). */
  get cameraLag(): number {
    return this.chase.lag;
  }

  get terrainStats(): TerrainStats | null {
    return this.terrain?.stats ?? null;
  }

  /**
   * Stride the terrain is drawn at under the followed body (1 = the exact collision surface; 0 =
   * nothing drawn there: a new world's first frames, or the body is off the map).
   */
  get terrainStride(): number {
    const m = this.bodyMeshes[this.followBody];
    return m && this.terrain ? this.terrain.strideAt(m.position.x, m.position.y) : 1;
  }

  setShowWorldAxes(show: boolean): void {
    this.worldAxes.visible = show;
  }

  /** 3D view background ("#rrggbb"). */
  setBackground(css: string): void {
    (this.scene.background as THREE.Color).set(css);
  }

  /** Terrain coloured by height (vertex colours), plain, or by slope; kept for the next world too. */
  setTerrainColors(mode: 'height' | 'plain' | 'slope'): void {
    if (mode === this.terrainColors) return;
    this.terrainColors = mode;
    this.applyTerrainColors();
  }

  /** Contour lines on the terrain (terrain-shading.ts); kept for the next world too. */
  setTerrainContours(on: boolean): void {
    if (on === this.terrainContours) return;
    this.terrainContours = on;
    this.applyTerrainColors();
  }

  /** [m] The contour interval of the current terrain (0 before a world). */
  get contourInterval(): number {
    return this.terrain?.shading.contourStep ?? 0;
  }

  /** Materials the terrain is tinted with (material-colors.ts), for the test hook and the legend. */
  get terrainMaterialsDrawn(): readonly string[] {
    return this.terrain?.shading.tinted ?? [];
  }

  /**
   * Switches the terrain's material (shared by every chunk, also those built later) between its
   * per-vertex height colours and one plain colour.
   */
  private applyTerrainColors(): void {
    const mat = this.terrain?.material;
    if (!mat) return;
    const plain = this.terrainColors === 'plain';
    if (mat.vertexColors !== !plain) {
      mat.vertexColors = !plain;
      mat.needsUpdate = true;
    }
    mat.color.set(plain ? TERRAIN_PLAIN_COLOR : 0xffffff);
    this.terrain?.shading.set({ slope: this.terrainColors === 'slope', contours: this.terrainContours });
  }

  /** Collision shapes drawn on top of the URDF visuals (bodies without visuals always show them). */
  setShowCollision(show: boolean): void {
    this.showCollision = show;
    this.robot?.setShowCollision(show);
  }

  /** Bodies drawn from URDF visuals. */
  get visualBodies(): number {
    return this.robot?.visualBodies ?? 0;
  }

  baseIndex(): number {
    const w = this.world;
    if (!w) return 0;
    return Math.max(0, w.baseBody >= 0 ? w.baseBody : w.bodies.findIndex((b) => b.role === 'chassis'));
  }

  get bodyMeshes(): readonly THREE.Mesh[] {
    return this.robot?.meshes ?? [];
  }

  clearWorld(): void {
    if (this.mapEdge) {
      this.root.remove(this.mapEdge);
      disposeMapEdge(this.mapEdge);
      this.mapEdge = null;
    }
    if (this.terrain) {
      this.root.remove(this.terrain.group);
      this.terrain.dispose();
      this.terrain = null;
    }
    if (this.robot) {
      this.root.remove(this.robot.group);
      this.robot.dispose();
      this.robot = null;
    }
    this.overlays.setTerrain(null);
    this.world = null;
  }

  /**
   * Camera preset; 'wheel' follows `wheel` (a body index) or the first wheel, the others the base.
   */
  setCamera(mode: CameraMode, wheel = -1): void {
    const changed = this.preset !== null && mode !== this.preset;
    this.preset = mode;
    if (changed) this.chase.endScenarioView();
    if (this.chase.scenarioView) return; // the scenario's camera holds until the user picks a preset
    this.chase.mode = mode;
    const w = this.world;
    let follow = this.baseIndex();
    if (mode === 'wheel' && w) {
      const first = w.bodies.findIndex((b) => b.role === 'wheel');
      follow = wheel >= 0 && w.bodies[wheel]?.role === 'wheel' ? wheel : first >= 0 ? first : follow;
    }
    if (follow !== this.followBody) this.chase.snap();
    this.followBody = follow;
  }

  /** Poses the bodies and moves the camera to the followed body. */
  setPoses(poses: Float32Array, dt: number): void {
    if (!this.robot) return;
    this.robot.setPoses(poses);
    const o = 7 * this.followBody;
    if (o + 6 < poses.length) {
      const yaw = yawOf(poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]);
      const whole = this.chase.mode !== 'wheel' && this.followBody === this.baseIndex() && this.framing.update(poses);
      this.chase.frameRadius = whole ? this.framing.radius : 0;
      if (whole) this.chase.follow(this.framing.cx, this.framing.cy, this.framing.cz, yaw, dt);
      else this.chase.follow(poses[o], poses[o + 1], poses[o + 2], yaw, dt);
    }
  }

  /** Selection markers, AABBs and axes for the poses set last. */
  updateOverlays(sel: Selection, contacts: Float32Array): void {
    this.overlays.update(sel, contacts, this.bodyMeshes, this.baseIndex());
  }

  /** Canvas CSS pixel position of a sim-frame point, or null behind the camera. */
  toScreen(out: [number, number], x: number, y: number, z: number): [number, number] | null {
    this.v.set(x, y, z);
    this.root.updateMatrixWorld();
    this.v.applyMatrix4(this.root.matrixWorld).project(this.chase.camera);
    if (this.v.z > 1 || this.v.z < -1) return null;
    out[0] = ((this.v.x + 1) / 2) * this.canvas.clientWidth;
    out[1] = ((1 - this.v.y) / 2) * this.canvas.clientHeight;
    return out;
  }

  /**
   * What lies under canvas CSS pixel (px, py): the nearest drawn contact within
   * CONTACT_PICK_RADIUS_PX, else the first body or terrain hit by the ray.
   */
  pick(px: number, py: number, contacts: Float32Array): PickResult {
    const c = this.contacts;
    const s: [number, number] = [0, 0];
    let best = -1, bestD = CONTACT_PICK_RADIUS_PX * CONTACT_PICK_RADIUS_PX;
    if (c.group.visible) {
      for (let k = 0; k < c.spheres.count; k++) {
        const idx = c.contactOfInstance[k], o = CONTACT_STRIDE * idx;
        if (idx < 0 || o + 2 >= contacts.length) continue;
        if (!this.toScreen(s, contacts[o], contacts[o + 1], contacts[o + 2])) continue;
        const d = (s[0] - px) ** 2 + (s[1] - py) ** 2;
        if (d < bestD) {
          bestD = d;
          best = idx;
        }
      }
    }
    if (best >= 0) return { type: 'contact', index: best };
    const ndc = new THREE.Vector2((px / Math.max(1, this.canvas.clientWidth)) * 2 - 1, 1 - (py / Math.max(1, this.canvas.clientHeight)) * 2);
    this.raycaster.setFromCamera(ndc, this.chase.camera);
    const targets: THREE.Object3D[] = [...this.bodyMeshes];
    if (this.terrain) targets.push(...this.terrain.group.children);
    const hits = this.raycaster.intersectObjects(targets, false);
    if (hits.length === 0) return { type: 'none' };
    const h = hits[0];
    const body = this.bodyMeshes.indexOf(h.object as THREE.Mesh);
    if (body >= 0) return { type: 'body', body };
    const w = this.world;
    if (!w) return { type: 'none' };
    const p = this.root.worldToLocal(h.point.clone());
    const t = w.terrain;
    const i = Math.min(t.cols - 2, Math.max(0, Math.floor((p.x - t.x0) / t.dx)));
    const j = Math.min(t.rows - 2, Math.max(0, Math.floor((p.y - t.y0) / t.dy)));
    return { type: 'cell', i, j, point: [p.x, p.y, p.z] };
  }

  resize(): void {
    const w = Math.max(1, this.canvas.clientWidth);
    const h = Math.max(1, this.canvas.clientHeight);
    if (this.canvas.width !== w || this.canvas.height !== h) this.renderer.setSize(w, h, false);
    this.chase.setAspect(w / h);
  }

  render(): void {
    if (this.terrain) {
      // the camera in the simulation frame: three (x, y, z) → sim (x, −z, y), the root's inverse
      const c = this.chase.camera.position;
      const f = this.bodyMeshes[this.followBody]?.position; // bodies sit in the sim frame
      this.terrain.update(c.x, -c.z, c.y, f ? f.x : Number.NaN, f ? f.y : Number.NaN);
    }
    this.renderer.render(this.scene, this.chase.camera);
  }

  dispose(): void {
    this.clearWorld();
    this.contacts.dispose();
    this.overlays.dispose();
    this.worldAxes.dispose();
    this.chase.dispose();
    this.renderer.dispose();
  }
}
