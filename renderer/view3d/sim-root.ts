/**
 * The ONE axis conversion of the renderer. Everything simulated lives under this group in
 * simulation coordinates (z up, x forward, y left); the group's rotation of −90° about x maps sim
 * (x, y, z) to three (x, z, −y), so sim z-up becomes three's y-up. A proper rotation, so triangle
 * winding (front faces up) is preserved.
 */
import * as THREE from 'three';

export function makeSimRoot(group: THREE.Group): THREE.Group {
  group.name = 'sim-root (z-up → y-up)';
  group.rotation.x = -Math.PI / 2;
  group.updateMatrixWorld(true);
  return group;
}
