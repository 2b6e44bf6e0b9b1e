/**
 * The map edge in the 3D view: a red line along the terrain's border at the ground (the overview's
 * heights, lifted a little) and a low translucent red fence above it. The world stops with a
 * left-terrain fault when a robot body's origin crosses it (sim/dynamics/faults.ts), so the user
 * sees the limit before reaching it. Built in simulation coordinates (under the sim root).
 */
import * as THREE from 'three';
import type { TerrainInfo } from '../../sim/app/protocol';

/** [m] Height of the translucent fence above the ground along the edge. */
export const EDGE_FENCE_HEIGHT_M = 0.6;
/** [m] The edge line is lifted this far above the overview's heights (they may cut corners below the exact surface). */
const EDGE_LIFT_M = 0.03;
const EDGE_COLOR = 0xff3b30;

/**
 * Points (x, y, z triples) around the terrain's border, counter-clockwise from (x0, y0), at the
 * overview's samples (its last sample is the grid's last vertex), closed (the first point repeated).
 */
export function edgeOutline(t: TerrainInfo): Float32Array {
  const o = t.overview;
  const x1 = t.x0 + (t.cols - 1) * t.dx, y1 = t.y0 + (t.rows - 1) * t.dy;
  // sample c of the overview lies at grid vertex min(c·stride, cols − 1)
  const xs = (c: number): number => t.x0 + Math.min(c * o.stride, t.cols - 1) * t.dx;
  const ys = (r: number): number => t.y0 + Math.min(r * o.stride, t.rows - 1) * t.dy;
  const h = (c: number, r: number): number => o.heights[r * o.cols + c] + EDGE_LIFT_M;
  const pts: number[] = [];
  for (let c = 0; c < o.cols; c++) pts.push(xs(c), t.y0, h(c, 0));
  for (let r = 1; r < o.rows; r++) pts.push(x1, ys(r), h(o.cols - 1, r));
  for (let c = o.cols - 2; c >= 0; c--) pts.push(xs(c), y1, h(c, o.rows - 1));
  for (let r = o.rows - 2; r >= 0; r--) pts.push(t.x0, ys(r), h(0, r));
  return Float32Array.from(pts);
}

/** The edge line and fence of `t` (dispose with disposeMapEdge). */
export function createMapEdge(t: TerrainInfo): THREE.Group {
  const line = edgeOutline(t);
  const n = line.length / 3;
  const g = new THREE.Group();
  g.name = 'map-edge';
  const lineGeom = new THREE.BufferGeometry();
  lineGeom.setAttribute('position', new THREE.BufferAttribute(line, 3));
  g.add(new THREE.Line(lineGeom, new THREE.LineBasicMaterial({ color: EDGE_COLOR })));
  // fence: a quad strip from the line up by EDGE_FENCE_HEIGHT_M
  const pos = new Float32Array(n * 2 * 3);
  for (let k = 0; k < n; k++) {
    pos.set([line[3 * k], line[3 * k + 1], line[3 * k + 2]], 6 * k);
    pos.set([line[3 * k], line[3 * k + 1], line[3 * k + 2] + EDGE_FENCE_HEIGHT_M], 6 * k + 3);
  }
  const index: number[] = [];
  for (let k = 0; k + 1 < n; k++) index.push(2 * k, 2 * k + 2, 2 * k + 1, 2 * k + 1, 2 * k + 2, 2 * k + 3);
  const fenceGeom = new THREE.BufferGeometry();
  fenceGeom.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  fenceGeom.setIndex(index);
  const fence = new THREE.Mesh(fenceGeom, new THREE.MeshBasicMaterial({ color: EDGE_COLOR, transparent: true, opacity: 0.25, side: THREE.DoubleSide, depthWrite: false }));
  fence.renderOrder = 5;
  g.add(fence);
  return g;
}

export function disposeMapEdge(g: THREE.Group): void {
  g.traverse((o) => {
    if (o instanceof THREE.Mesh || o instanceof THREE.Line) {
      o.geometry.dispose();
      (o.material as THREE.Material).dispose();
    }
  });
}
