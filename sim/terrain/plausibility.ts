/**
 * Plausibility limits for terrain files: a number can be finite and still make the world
 * non-finite. heightRange [-1e308, -1e308] puts the chassis at z = −∞ after one sum; a spacing of
 * 1e308 m makes the map's extent infinite; 1e-320 m is a subnormal whose reciprocal is ∞. Every
 * loader (sidecar, PNG, RAW, GeoTIFF) checks spacing, heights and origin against these ranges and
 * names the field when one is outside. The ranges are wide enough for any real DEM (Earth, Mars)
 * and any lab-scale test surface, and narrow enough that every product of them with a 16385-vertex
 * grid stays far inside float64 with sub-micrometre resolution.
 */

/** [m] Smallest grid spacing accepted (0.1 mm: finer than any wheel–terrain model needs). */
export const TERRAIN_MIN_SPACING = 1e-4;

/** [m] Largest grid spacing accepted (200 km: a 1°-per-pixel global DEM is 111 km at the equator). */
export const TERRAIN_MAX_SPACING = 2e5;

/** [m] Largest |height| accepted (100 km: Olympus Mons is 22 km, the Mariana Trench −11 km). */
export const TERRAIN_MAX_ABS_HEIGHT = 1e5;

/** [m] Largest |x0|, |y0| of a terrain's origin (100,000 km: beyond any projected CRS's range). */
export const TERRAIN_MAX_ABS_ORIGIN = 1e8;

export function isPlausibleSpacing(v: unknown): v is number {
  return typeof v === 'number' && v >= TERRAIN_MIN_SPACING && v <= TERRAIN_MAX_SPACING;
}

export function isPlausibleHeight(v: unknown): v is number {
  return typeof v === 'number' && v >= -TERRAIN_MAX_ABS_HEIGHT && v <= TERRAIN_MAX_ABS_HEIGHT;
}

export function isPlausibleOrigin(v: unknown): v is number {
  return typeof v === 'number' && v >= -TERRAIN_MAX_ABS_ORIGIN && v <= TERRAIN_MAX_ABS_ORIGIN;
}

/** "from 0.0001 to 200000 m", for messages. */
export const SPACING_RANGE_TEXT = `from ${TERRAIN_MIN_SPACING} to ${TERRAIN_MAX_SPACING} m`;
export const HEIGHT_RANGE_TEXT = `within ±${TERRAIN_MAX_ABS_HEIGHT} m`;
export const ORIGIN_RANGE_TEXT = `within ±${TERRAIN_MAX_ABS_ORIGIN} m`;
