/**
 * Inspection overlays in the simulation frame: the selection (a ring marker on the selected
 * contact, the bounding box of the selected body, the outline of the selected terrain cell),
 * the outlines of the terrain elements under the contacts (rectangle, or the two triangles on
 * the V1–V2 diagonal as sim/terrain/heightfield.ts classifies them), every body's AABB, each
 * wheel's cell range (the cells its terrain query considers) and the axes at the robot's base.
 * Terrain lines follow the exact heights (inspect/terrain-heights.ts, fetched around what is
 * drawn); a side whose heights are still on their way is left out until they arrive. Line
 * buffers of fixed capacity; updating allocates nothing.
 */
import * as THREE from 'three';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE } from '../../sim/dynamics/frame-layout';
import type { BodyInfo, WheelCylinder } from '../../sim/app/protocol';
import { wheelCylinderInWorld } from '../../sim/app/wheel-cylinder';
import { cylinderCellRange, type CellRange } from '../../sim/collision/cylinder-terrain/cell-range';
import { SPECULATIVE_DISTANCE } from '../../sim/dynamics/constants';
import { terrainElement } from '../inspect/contact-detail';
import type { TerrainHeights } from '../inspect/terrain-heights';
import type { Selection } from '../inspect/selection';
import { CONTACT_MARKER_RADIUS } from '../config';

/** Element outlines drawn at most (distinct cells under contacts). */
const ELEMENT_CAPACITY = 128;
/** Segments per element outline: 4 sides + the diagonal. */
const SEGS_PER_ELEMENT = 5;
/** [m] Lift of outlines above the surface so they are not hidden in it. */
const OUTLINE_LIFT = 0.004;
const MAX_BODIES = 512;
/** Segments of the cell-range outlines at most (all wheels together; a 0.15 m wheel on 5 cm cells needs 32). */
const CELL_RANGE_SEGMENTS = 4096;

class Lines {
  readonly pos: Float32Array;
  readonly geom = new THREE.BufferGeometry();
  readonly obj: THREE.LineSegments;
  private readonly attr: THREE.BufferAttribute;
  n = 0;
  constructor(segments: number, color: number, depthTest = true) {
    this.pos = new Float32Array(segments * 6);
    this.attr = new THREE.BufferAttribute(this.pos, 3).setUsage(THREE.DynamicDrawUsage);
    this.geom.setAttribute('position', this.attr);
    this.obj = new THREE.LineSegments(this.geom, new THREE.LineBasicMaterial({ color, depthTest }));
    this.obj.frustumCulled = false;
    this.obj.renderOrder = 11;
  }
  begin(): void {
    this.n = 0;
  }
  seg(ax: number, ay: number, az: number, bx: number, by: number, bz: number): void {
    if (6 * this.n + 6 > this.pos.length) return;
    const o = 6 * this.n++;
    this.pos[o] = ax; this.pos[o + 1] = ay; this.pos[o + 2] = az;
    this.pos[o + 3] = bx; this.pos[o + 4] = by; this.pos[o + 5] = bz;
  }
  end(): void {
    this.geom.setDrawRange(0, 2 * this.n);
    this.attr.needsUpdate = true;
  }
  dispose(): void {
    this.geom.dispose();
    (this.obj.material as THREE.Material).dispose();
  }
}

export class OverlaysView {
  readonly group = new THREE.Group();
  private readonly elements = new Lines(ELEMENT_CAPACITY * SEGS_PER_ELEMENT, 0xffffff);
  private readonly cell = new Lines(SEGS_PER_ELEMENT, 0xff40ff, false);
  private readonly aabbs = new Lines(MAX_BODIES * 12, 0x80ff80);
  private readonly selBox = new Lines(12, 0xffff00, false);
  private readonly cellRanges = new Lines(CELL_RANGE_SEGMENTS, 0xff9020);
  /** Wheels whose cell range is drawn: body index, its cylinder in the body frame, radius the query uses [m], half-height [m]. */
  private wheels: { body: number; cylinder: WheelCylinder; radius: number; halfHeight: number }[] = [];
  /** A drawn pose (origin, quaternion) and the wheel cylinder's centre and axis from it (scratch). */
  private readonly pose = new Float64Array(7);
  private readonly placed = new Float64Array(6);
  private readonly range: CellRange = { i0: 0, j0: 0, i1: -1, j1: -1 };
  private readonly ring: THREE.Mesh;
  readonly axes = new THREE.AxesHelper(0.6);
  private terrain: TerrainHeights | null = null;
  private readonly box = new THREE.Box3();
  private readonly seen = new Set<number>();

  constructor() {
    this.group.name = 'overlays';
    this.ring = new THREE.Mesh(
      new THREE.SphereGeometry(CONTACT_MARKER_RADIUS * 3.2, 12, 8),
      new THREE.MeshBasicMaterial({ color: 0xffff00, wireframe: true, depthTest: false }),
    );
    this.ring.renderOrder = 12;
    this.ring.visible = false;
    this.axes.visible = false;
    (this.axes.material as THREE.Material).depthTest = false;
    this.axes.renderOrder = 12;
    this.aabbs.obj.visible = false;
    this.cellRanges.obj.visible = false;
    this.group.add(this.elements.obj, this.cell.obj, this.aabbs.obj, this.cellRanges.obj, this.selBox.obj, this.ring, this.axes);
  }

  /**
   * Exact heights for the terrain lines, and the bodies (wheels get a cell range: each wheel's
   * cylinder, at its radius plus the largest speculative margin the wheel query adds).
   */
  setTerrain(t: TerrainHeights | null, bodies: readonly BodyInfo[] = []): void {
    this.terrain = t;
    this.wheels = [];
    bodies.forEach((b, k) => {
      if (b.role === 'wheel' && b.wheel) this.wheels.push({ body: k, cylinder: b.wheel, radius: b.wheel.radius + SPECULATIVE_DISTANCE, halfHeight: b.wheel.height / 2 });
    });
  }

  setShowCellRange(v: boolean): void {
    this.cellRanges.obj.visible = v;
  }

  /** Line segments drawn now: element outlines and wheel cell ranges (test hook). */
  get segmentCounts(): { elements: number; cellRanges: number } {
    return { elements: this.elements.n, cellRanges: this.cellRanges.n };
  }

  setShowElements(v: boolean): void {
    this.elements.obj.visible = v;
  }

  setShowAabbs(v: boolean): void {
    this.aabbs.obj.visible = v;
  }

  setShowAxes(v: boolean): void {
    this.axes.visible = v;
  }

  /** Outline of terrain cell (i, j): its sides, and the V1–V2 diagonal when it is two triangles. */
  private outline(l: Lines, i: number, j: number): void {
    const t = this.terrain;
    if (!t || i < 0 || j < 0 || i >= t.cols - 1 || j >= t.rows - 1) return;
    const z = OUTLINE_LIFT;
    const x0 = t.x0 + i * t.dx, y0 = t.y0 + j * t.dy, x1 = x0 + t.dx, y1 = y0 + t.dy;
    const h0 = t.height(i, j) + z, h1 = t.height(i + 1, j) + z, h2 = t.height(i, j + 1) + z, h3 = t.height(i + 1, j + 1) + z;
    if (Number.isNaN(h0 + h1 + h2 + h3)) return; // heights on their way
    l.seg(x0, y0, h0, x1, y0, h1);
    l.seg(x1, y0, h1, x1, y1, h3);
    l.seg(x1, y1, h3, x0, y1, h2);
    l.seg(x0, y1, h2, x0, y0, h0);
    if (terrainElement(t, i, j, x0, y0) !== 'rectangle') l.seg(x1, y0, h1, x0, y1, h2);
  }

  /** Grid line from vertex (ia, ja) to (ib, jb) (one step along x or y), lifted over the exact surface. */
  private gridSeg(l: Lines, t: TerrainHeights, ia: number, ja: number, ib: number, jb: number): void {
    const ha = t.height(ia, ja), hb = t.height(ib, jb);
    if (Number.isNaN(ha + hb)) return;
    l.seg(t.x0 + ia * t.dx, t.y0 + ja * t.dy, ha + OUTLINE_LIFT, t.x0 + ib * t.dx, t.y0 + jb * t.dy, hb + OUTLINE_LIFT);
  }

  /**
   * Each wheel's cell range (sim/collision/cylinder-terrain/cell-range.ts, the query's broad
   * phase) from its drawn pose: the outline of the cell rectangle along the grid lines.
   */
  private updateCellRanges(meshes: readonly THREE.Mesh[]): void {
    const l = this.cellRanges, t = this.terrain, r = this.range;
    l.begin();
    if (t && l.obj.visible) {
      const grid = { x0: t.x0, y0: t.y0, dx: t.dx, dy: t.dy, cellsX: t.cols - 1, cellsY: t.rows - 1 };
      for (const w of this.wheels) {
        const m = meshes[w.body];
        if (!m) continue;
        const pose = this.pose, c = this.placed;
        pose[0] = m.position.x; pose[1] = m.position.y; pose[2] = m.position.z;
        pose[3] = m.quaternion.x; pose[4] = m.quaternion.y; pose[5] = m.quaternion.z; pose[6] = m.quaternion.w;
        // the cylinder where the simulation has it in the body (a URDF wheel's collision origin)
        wheelCylinderInWorld(c, w.cylinder, pose, 0);
        if (!cylinderCellRange(r, grid, c[0], c[1], c[3], c[4], w.radius, w.halfHeight)) continue;
        const ia = r.i0, ib = r.i1 + 1, ja = r.j0, jb = r.j1 + 1;
        for (let i = ia; i < ib; i++) {
          this.gridSeg(l, t, i, ja, i + 1, ja);
          this.gridSeg(l, t, i, jb, i + 1, jb);
        }
        for (let j = ja; j < jb; j++) {
          this.gridSeg(l, t, ia, j, ia, j + 1);
          this.gridSeg(l, t, ib, j, ib, j + 1);
        }
      }
    }
    l.end();
  }

  /** Element outlines under the terrain contacts of a frame. */
  updateElements(contacts: Float32Array, info: Int32Array): void {
    const l = this.elements;
    l.begin();
    this.seen.clear();
    const t = this.terrain;
    const n = Math.min(Math.floor(contacts.length / CONTACT_STRIDE), Math.floor(info.length / CONTACT_INFO_STRIDE));
    if (t && l.obj.visible) {
      for (let k = 0; k < n && this.seen.size < ELEMENT_CAPACITY; k++) {
        const q = CONTACT_INFO_STRIDE * k;
        if (info[q + 2] >= 0 || info[q + 3] < 0) continue;
        const key = info[q + 4] * t.cols + info[q + 3];
        if (this.seen.has(key)) continue;
        this.seen.add(key);
        this.outline(l, info[q + 3], info[q + 4]);
      }
    }
    l.end();
  }

  private boxLines(l: Lines, b: THREE.Box3): void {
    const a = b.min, c = b.max;
    const xs = [a.x, c.x], ys = [a.y, c.y], zs = [a.z, c.z];
    for (let u = 0; u < 2; u++) for (let v = 0; v < 2; v++) {
      l.seg(xs[0], ys[u], zs[v], xs[1], ys[u], zs[v]);
      l.seg(xs[u], ys[0], zs[v], xs[u], ys[1], zs[v]);
      l.seg(xs[u], ys[v], zs[0], xs[u], ys[v], zs[1]);
    }
  }

  /**
   * AABB of a body in the sim frame: body meshes sit in an untransformed group under the sim
   * root, so a mesh's local matrix is its pose in the sim frame.
   */
  private bodyBox(mesh: THREE.Mesh): THREE.Box3 {
    if (!mesh.geometry.boundingBox) mesh.geometry.computeBoundingBox();
    this.box.copy(mesh.geometry.boundingBox!);
    mesh.updateMatrix();
    return this.box.applyMatrix4(mesh.matrix);
  }

  /** Selection markers and AABBs for the current poses. */
  update(sel: Selection, contacts: Float32Array, meshes: readonly THREE.Mesh[], base: number): void {
    // selected contact
    if (sel.type === 'contact' && sel.index >= 0 && CONTACT_STRIDE * sel.index + 2 < contacts.length) {
      const o = CONTACT_STRIDE * sel.index;
      this.ring.position.set(contacts[o], contacts[o + 1], contacts[o + 2]);
      this.ring.visible = true;
    } else this.ring.visible = false;
    // selected body
    this.selBox.begin();
    if (sel.type === 'body' && meshes[sel.body]) this.boxLines(this.selBox, this.bodyBox(meshes[sel.body]));
    this.selBox.end();
    // selected cell
    this.cell.begin();
    if (sel.type === 'cell') this.outline(this.cell, sel.i, sel.j);
    this.cell.end();
    this.updateCellRanges(meshes);
    // all AABBs
    this.aabbs.begin();
    if (this.aabbs.obj.visible) for (const m of meshes) this.boxLines(this.aabbs, this.bodyBox(m));
    this.aabbs.end();
    const bm = meshes[base];
    if (bm) {
      this.axes.position.copy(bm.position);
      this.axes.quaternion.copy(bm.quaternion);
    }
  }

  dispose(): void {
    for (const l of [this.elements, this.cell, this.aabbs, this.cellRanges, this.selBox]) l.dispose();
    this.ring.geometry.dispose();
    (this.ring.material as THREE.Material).dispose();
    this.axes.dispose();
  }
}
