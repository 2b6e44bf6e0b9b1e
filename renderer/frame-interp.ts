/**
 * Pose interpolation between the last two frames the worker sent. The sim runs on its own fixed
 * clock; the renderer draws at display rate, so it shows the state at `renderTime`, a little
 * behind the newest frame, blending the two frames that bracket it. Quaternions are blended with
 * normalised lerp on the shorter arc (the two frames are a few ms apart, so nlerp's angular error
 * against slerp is negligible and it costs no trig).
 *
 * poses: 7 floats per body, px py pz qx qy qz qw (sim/app/protocol.ts).
 */

/** Blend factor of `t` between times `t0` and `t1`, clamped to [0, 1]; 1 when the frames coincide. */
export function blendFactor(t0: number, t1: number, t: number): number {
  const span = t1 - t0;
  if (!(span > 0)) return 1;
  const a = (t - t0) / span;
  if (Number.isNaN(a)) return 1;
  return a < 0 ? 0 : a > 1 ? 1 : a;
}

/**
 * out = blend of poses a and b at factor `alpha` (0 → a, 1 → b). Bodies missing from `a` (a new
 * world) take b's pose. Returns out. `out` may alias neither input.
 */
export function interpolatePoses(out: Float32Array, a: Float32Array, b: Float32Array, alpha: number): Float32Array {
  const n = Math.min(out.length, b.length);
  for (let k = 0; k + 7 <= n; k += 7) {
    if (k + 7 > a.length) {
      for (let c = 0; c < 7; c++) out[k + c] = b[k + c];
      continue;
    }
    out[k] = a[k] + (b[k] - a[k]) * alpha;
    out[k + 1] = a[k + 1] + (b[k + 1] - a[k + 1]) * alpha;
    out[k + 2] = a[k + 2] + (b[k + 2] - a[k + 2]) * alpha;
    let bx = b[k + 3], by = b[k + 4], bz = b[k + 5], bw = b[k + 6];
    const ax = a[k + 3], ay = a[k + 4], az = a[k + 5], aw = a[k + 6];
    // q and −q are the same rotation: flip b onto a's hemisphere so the blend takes the short arc.
    if (ax * bx + ay * by + az * bz + aw * bw < 0) {
      bx = -bx; by = -by; bz = -bz; bw = -bw;
    }
    const qx = ax + (bx - ax) * alpha;
    const qy = ay + (by - ay) * alpha;
    const qz = az + (bz - az) * alpha;
    const qw = aw + (bw - aw) * alpha;
    const len = Math.hypot(qx, qy, qz, qw);
    if (len > 0 && Number.isFinite(len)) {
      out[k + 3] = qx / len; out[k + 4] = qy / len; out[k + 5] = qz / len; out[k + 6] = qw / len;
    } else {
      // Only for garbage input (zero or NaN quaternions): show b rather than NaN.
      out[k + 3] = b[k + 3]; out[k + 4] = b[k + 4]; out[k + 5] = b[k + 5]; out[k + 6] = b[k + 6];
    }
  }
  return out;
}
