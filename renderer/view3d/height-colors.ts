/**
 * Height → colour ramp for the terrain (low green, mid ochre, high grey-white), written into a
 * Float32Array of rgb per vertex. Pure: no three.
 */

/** Control points of the ramp: [t, r, g, b] with t in [0, 1] from min to max height. */
const RAMP: readonly (readonly [number, number, number, number])[] = [
  [0.0, 0.20, 0.38, 0.20],
  [0.35, 0.42, 0.52, 0.25],
  [0.65, 0.62, 0.52, 0.34],
  [0.85, 0.55, 0.48, 0.42],
  [1.0, 0.92, 0.92, 0.9],
];

/** Writes rgb for height h in [lo, hi] into out at offset o. A flat map (hi = lo) gets the mid colour. */
export function heightColor(out: Float32Array, o: number, h: number, lo: number, hi: number): void {
  let t = hi > lo ? (h - lo) / (hi - lo) : 0.5;
  if (!(t >= 0)) t = 0;
  if (t > 1) t = 1;
  let k = 1;
  while (k < RAMP.length - 1 && RAMP[k][0] < t) k++;
  const a = RAMP[k - 1], b = RAMP[k];
  const u = (t - a[0]) / (b[0] - a[0]);
  out[o] = a[1] + (b[1] - a[1]) * u;
  out[o + 1] = a[2] + (b[2] - a[2]) * u;
  out[o + 2] = a[3] + (b[3] - a[3]) * u;
}

/** sRGB-encoded channel (what the ramp is written in) → linear (what three's lighting expects). */
function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

/** Linear rgb per vertex of a mesh whose positions are xyz with z the height. */
export function heightColors(positions: Float32Array, lo: number, hi: number): Float32Array {
  const colors = new Float32Array(positions.length);
  for (let v = 0; v < positions.length; v += 3) {
    heightColor(colors, v, positions[v + 2], lo, hi);
    colors[v] = srgbToLinear(colors[v]);
    colors[v + 1] = srgbToLinear(colors[v + 1]);
    colors[v + 2] = srgbToLinear(colors[v + 2]);
  }
  return colors;
}
