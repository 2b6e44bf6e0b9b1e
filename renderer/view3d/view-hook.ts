/**
 * What the e2e tests read about the views (test-hook.ts `view`): the terrain's shading (materials
 * tinted, contour interval), the camera (a scenario's view holding, its mode), which bodies are
 * on screen, and the manifold view's construction. Read only when a test asks.
 */
import type { SceneView } from './scene-view';
import type { ManifoldView } from '../panels/manifold-view';
import type { WorldInfo } from '../../sim/app/protocol';
import { robotBodies } from './robot-framing';

export interface ViewHookState {
  terrainMaterials: string[];
  /** [m] 0 before a world. */
  contourInterval: number;
  camera: { mode: string; scenarioView: boolean; distance: number };
  /** Robot bodies (the base and everything joined to it) and other movable bodies whose origin is drawn inside the canvas, of how many. */
  robotOnScreen: { shown: number; of: number };
  obstaclesOnScreen: { shown: number; of: number };
  /** The manifold view's construction: the wheel (body index), case, element, sizes [m], contact points and footprint corners; null when it draws none. */
  manifold: { wheel: number; case: string; element: string; semiW: number; semiU: number; halfWidthL: number; halfWidthU: number; points: number; footprintCorners: number } | null;
}

export function viewHookState(scene: SceneView, world: WorldInfo | null, manifold: ManifoldView | null, canvas: HTMLElement): ViewHookState {
  const onScreen = (bodies: number[]): { shown: number; of: number } => {
    const p: [number, number] = [0, 0];
    let shown = 0;
    for (const b of bodies) {
      const m = scene.bodyMeshes[b];
      if (m && scene.toScreen(p, m.position.x, m.position.y, m.position.z) && p[0] >= 0 && p[1] >= 0 && p[0] <= canvas.clientWidth && p[1] <= canvas.clientHeight) shown++;
    }
    return { shown, of: bodies.length };
  };
  const robot = world ? robotBodies(world) : [];
  const obstacles = world ? world.bodies.map((b, k) => (b.role === 'obstacle' && !robot.includes(k) ? k : -1)).filter((k) => k >= 0) : [];
  const c = manifold?.picture?.construction ?? null;
  return {
    terrainMaterials: [...scene.terrainMaterialsDrawn],
    contourInterval: scene.contourInterval,
    camera: { mode: scene.chase.mode, scenarioView: scene.chase.scenarioView, distance: scene.chase.camera.position.distanceTo(scene.chase.lookTarget) },
    robotOnScreen: onScreen(robot),
    obstaclesOnScreen: onScreen(obstacles),
    manifold: c ? { wheel: manifold!.picture!.wheel, case: c.case, element: c.element, semiW: c.semiW, semiU: c.semiU, halfWidthL: c.halfWidthL, halfWidthU: c.halfWidthU, points: manifold!.picture!.points.length, footprintCorners: manifold!.picture!.footprint.length / 2 } : null,
  };
}
