/**
 * 3-vectors as plain `[x, y, z]` tuples of float64.
 *
 * Every function writes into an `out` argument and returns it, so hot paths can reuse
 * module-level scratch vectors and allocate nothing per step. `out` may alias an input.
 */

export type Vec3 = [number, number, number];

/** A new vector (allocates; for setup code, not hot paths). */
export function vec3(x = 0, y = 0, z = 0): Vec3 {
  return [x, y, z];
}

/** Writes (x, y, z) into `out` and returns it. */
export function set(out: Vec3, x: number, y: number, z: number): Vec3 {
  out[0] = x;
  out[1] = y;
  out[2] = z;
  return out;
}

/** Copies `a` into `out` and returns `out`. */
export function copy(out: Vec3, a: Readonly<Vec3>): Vec3 {
  out[0] = a[0];
  out[1] = a[1];
  out[2] = a[2];
  return out;
}

/** `out = a + b`, component-wise; `out` may alias an input. */
export function add(out: Vec3, a: Readonly<Vec3>, b: Readonly<Vec3>): Vec3 {
  out[0] = a[0] + b[0];
  out[1] = a[1] + b[1];
  out[2] = a[2] + b[2];
  return out;
}

/** `out = a − b`, component-wise; `out` may alias an input. */
export function sub(out: Vec3, a: Readonly<Vec3>, b: Readonly<Vec3>): Vec3 {
  out[0] = a[0] - b[0];
  out[1] = a[1] - b[1];
  out[2] = a[2] - b[2];
  return out;
}

/** `out = a · s`; `out` may alias `a`. */
export function scale(out: Vec3, a: Readonly<Vec3>, s: number): Vec3 {
  out[0] = a[0] * s;
  out[1] = a[1] * s;
  out[2] = a[2] * s;
  return out;
}

/** out = a + b * s */
export function addScaled(out: Vec3, a: Readonly<Vec3>, b: Readonly<Vec3>, s: number): Vec3 {
  out[0] = a[0] + b[0] * s;
  out[1] = a[1] + b[1] * s;
  out[2] = a[2] + b[2] * s;
  return out;
}

/** `out = −a`; `out` may alias `a`. */
export function negate(out: Vec3, a: Readonly<Vec3>): Vec3 {
  out[0] = -a[0];
  out[1] = -a[1];
  out[2] = -a[2];
  return out;
}

/** The dot product a · b. */
export function dot(a: Readonly<Vec3>, b: Readonly<Vec3>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** `out = a × b` (right-handed); `out` may alias an input. */
export function cross(out: Vec3, a: Readonly<Vec3>, b: Readonly<Vec3>): Vec3 {
  const x = a[1] * b[2] - a[2] * b[1];
  const y = a[2] * b[0] - a[0] * b[2];
  const z = a[0] * b[1] - a[1] * b[0];
  out[0] = x;
  out[1] = y;
  out[2] = z;
  return out;
}

/** The squared Euclidean length |a|². */
export function lengthSq(a: Readonly<Vec3>): number {
  return a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
}

/** The Euclidean length |a|. */
export function length(a: Readonly<Vec3>): number {
  return Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/** The squared distance |a − b|². */
export function distanceSq(a: Readonly<Vec3>, b: Readonly<Vec3>): number {
  const x = a[0] - b[0];
  const y = a[1] - b[1];
  const z = a[2] - b[2];
  return x * x + y * y + z * z;
}

/** The distance |a − b|. */
export function distance(a: Readonly<Vec3>, b: Readonly<Vec3>): number {
  return Math.sqrt(distanceSq(a, b));
}

/**
 * Normalises `a` into `out` and returns the original length. A vector shorter than `minLength`
 * is not normalised: `out` is left as `fallback` (copied) and 0 is returned, so callers can
 * branch on a degenerate direction instead of receiving NaN.
 */
export function normalizeOr(out: Vec3, a: Readonly<Vec3>, fallback: Readonly<Vec3>, minLength = 1e-300): number {
  const len = Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  if (!(len > minLength)) {
    copy(out, fallback);
    return 0;
  }
  const inv = 1 / len;
  out[0] = a[0] * inv;
  out[1] = a[1] * inv;
  out[2] = a[2] * inv;
  return len;
}

/** out = a + (b - a) * t */
export function lerp(out: Vec3, a: Readonly<Vec3>, b: Readonly<Vec3>, t: number): Vec3 {
  out[0] = a[0] + (b[0] - a[0]) * t;
  out[1] = a[1] + (b[1] - a[1]) * t;
  out[2] = a[2] + (b[2] - a[2]) * t;
  return out;
}

/**
 * Any unit vector perpendicular to unit vector `a` (deterministic: built from the axis along
 * which `a` has its smallest component).
 */
export function anyPerpendicular(out: Vec3, a: Readonly<Vec3>): Vec3 {
  const ax = Math.abs(a[0]);
  const ay = Math.abs(a[1]);
  const az = Math.abs(a[2]);
  let x: number, y: number, z: number;
  if (ax <= ay && ax <= az) {
    // a × e_x
    x = 0;
    y = a[2];
    z = -a[1];
  } else if (ay <= az) {
    // a × e_y
    x = -a[2];
    y = 0;
    z = a[0];
  } else {
    // a × e_z
    x = a[1];
    y = -a[0];
    z = 0;
  }
  const inv = 1 / Math.sqrt(x * x + y * y + z * z);
  out[0] = x * inv;
  out[1] = y * inv;
  out[2] = z * inv;
  return out;
}

/** True when all three components are finite (no NaN, no ±∞). */
export function isFinite3(a: Readonly<Vec3>): boolean {
  return Number.isFinite(a[0]) && Number.isFinite(a[1]) && Number.isFinite(a[2]);
}
