/**
 * Contact data shared by every collision routine.
 *
 * Convention (project-wide, tested): a contact's `point` lies on the surface of the OTHER body
 * (for wheel–terrain: on the terrain surface; for body pairs: on body B), the `normal` is a unit
 * vector pointing from the other body into the body it pushes (for wheel–terrain: out of the
 * terrain), and `depth ≥ 0` is the penetration along that normal.
 *
 * Engine form: `ContactBuffer`, fixed-capacity struct-of-arrays filled without allocation.
 * Plain form: `Contact` objects with `[x, y, z]` arrays, built only by the scripting API.
 */

/** Which part of the analytic cylinder–terrain algorithm produced a wheel contact (paper §III). */
export const WheelContactKind = {
  /** Broad phase found the patch horizontal: exact cylinder–plane test. */
  FlatPatch: 0,
  /** Case A: a base disc lies on an element (ellipse clipping). */
  BaseA: 1,
  /** Case B: the side surface lies on an element (trapezoid, Cyrus–Beck clipping). */
  SideB: 2,
  /** Case C: a single rim point dips into an element. */
  PointC: 3,
  /** Second pass: a terrain edge or vertex pokes into the cylinder's base or side. */
  EdgeVertex: 4,
} as const;
export type WheelContactKind = (typeof WheelContactKind)[keyof typeof WheelContactKind];

/** Names of the `WheelContactKind` values, by value. */
export const WHEEL_CONTACT_KIND_NAMES: readonly string[] = ['flat', 'base', 'side', 'point', 'edge'];

/** Plain contact (scripting API). */
export interface Contact {
  point: [number, number, number];
  normal: [number, number, number];
  depth: number;
}

/**
 * Fixed-capacity contact storage. Writers call `push`, which returns the slot index or −1 when
 * the buffer is full (callers report overflow; they never grow the buffer on a hot path).
 * `kind` is a WheelContactKind for wheel contacts or a routine-specific code for body pairs;
 * `cellI`/`cellJ` are the terrain cell (−1 when not terrain); `feature` is a feature id used by
 * persistent manifolds for warm starting (0 when unused).
 */
export class ContactBuffer {
  readonly capacity: number;
  count = 0;
  readonly point: Float64Array;
  readonly normal: Float64Array;
  readonly depth: Float64Array;
  readonly kind: Uint8Array;
  readonly cellI: Int32Array;
  readonly cellJ: Int32Array;
  readonly feature: Uint32Array;
  /** Number of contacts dropped because the buffer was full since the last clear(). */
  overflow = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.point = new Float64Array(capacity * 3);
    this.normal = new Float64Array(capacity * 3);
    this.depth = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.cellI = new Int32Array(capacity);
    this.cellJ = new Int32Array(capacity);
    this.feature = new Uint32Array(capacity);
  }

  clear(): void {
    this.count = 0;
    this.overflow = 0;
  }

  push(
    px: number, py: number, pz: number,
    nx: number, ny: number, nz: number,
    depth: number, kind: number, cellI: number, cellJ: number, feature = 0,
  ): number {
    if (this.count >= this.capacity) {
      this.overflow++;
      return -1;
    }
    const k = this.count++;
    const k3 = k * 3;
    this.point[k3] = px;
    this.point[k3 + 1] = py;
    this.point[k3 + 2] = pz;
    this.normal[k3] = nx;
    this.normal[k3 + 1] = ny;
    this.normal[k3 + 2] = nz;
    this.depth[k] = depth;
    this.kind[k] = kind;
    this.cellI[k] = cellI;
    this.cellJ[k] = cellJ;
    this.feature[k] = feature;
    return k;
  }

  /**
   * Claims the next slot and returns its index, or −1 when the buffer is full (counted in
   * `overflow`); the caller writes the slot's fields directly. For hot paths: unlike push, no
   * double crosses a call, so nothing is boxed whether or not the JIT inlines the writer.
   */
  reserve(): number {
    if (this.count >= this.capacity) {
      this.overflow++;
      return -1;
    }
    return this.count++;
  }

  /** Copies slot `from` into slot `to` (used by in-place manifold reduction). */
  move(to: number, from: number): void {
    if (to === from) return;
    this.copyFrom(to, this, from);
  }

  /** Copies slot `from` of `src` (this buffer or another) into slot `to` of this buffer. */
  copyFrom(to: number, src: ContactBuffer, from: number): void {
    const t3 = to * 3, f3 = from * 3;
    for (let a = 0; a < 3; a++) {
      this.point[t3 + a] = src.point[f3 + a];
      this.normal[t3 + a] = src.normal[f3 + a];
    }
    this.depth[to] = src.depth[from];
    this.kind[to] = src.kind[from];
    this.cellI[to] = src.cellI[from];
    this.cellJ[to] = src.cellJ[from];
    this.feature[to] = src.feature[from];
  }
}
