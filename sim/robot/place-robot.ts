/**
 * Puts a robot (bodies and joints, as built at some height) on the terrain: lifted or lowered as
 * one piece so that its lowest collision point clears the highest terrain under it by
 * PLACEMENT_CLEARANCE. Load-time code.
 */
import { createDynamicsWorld } from '../dynamics/build';
import type { RobotSpec } from '../dynamics/spec';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { aabb } from '../shapes/shape';
import { shapeWorldAabb } from '../shapes/world-aabb';
import type { Heightfield } from '../terrain/heightfield';

/** [m] Gap left between the robot's lowest point and the terrain at the start. */
export const PLACEMENT_CLEARANCE = 0.005;
/** Terrain samples per axis over each body's footprint. */
const SAMPLES = 9;

export function placeOnTerrain(robot: RobotSpec, terrain: Heightfield): RobotSpec {
  const probe = createDynamicsWorld(
    { name: 'placement', gravity: [0, 0, 0], dt: 1 / 240, substeps: 1, sleep: false, ccd: false, materials: {}, terrainMaterials: {}, bodies: robot.bodies.map((b) => ({ ...b, material: undefined })), joints: [], script: [] },
    null,
  );
  const box = aabb();
  const pos: Vec3 = [0, 0, 0];
  const rot: Quat = [0, 0, 0, 1];
  let lift = -Infinity;
  for (let b = 0; b < probe.bodies.count; b++) {
    const shape = probe.bodies.shapes[b];
    if (shape === null) continue;
    probe.bodies.shapePose(pos, rot, b);
    shapeWorldAabb(box, shape, { position: pos, orientation: rot });
    let top = -Infinity;
    for (let i = 0; i < SAMPLES; i++) {
      for (let j = 0; j < SAMPLES; j++) {
        const x = box.min[0] + ((box.max[0] - box.min[0]) * i) / (SAMPLES - 1);
        const y = box.min[1] + ((box.max[1] - box.min[1]) * j) / (SAMPLES - 1);
        if (terrain.contains(x, y)) top = Math.max(top, terrain.heightAt(x, y));
      }
    }
    if (top > -Infinity) lift = Math.max(lift, top + PLACEMENT_CLEARANCE - box.min[2]);
  }
  if (lift === -Infinity) return robot;
  const up = (p: [number, number, number] | undefined): [number, number, number] | undefined => (p === undefined ? undefined : [p[0], p[1], p[2] + lift]);
  return {
    ...robot,
    bodies: robot.bodies.map((b) => ({ ...b, position: up(b.position ?? [0, 0, 0]) })),
    joints: robot.joints.map((j) => (j.anchor === undefined ? j : { ...j, anchor: up(j.anchor) })),
  };
}
