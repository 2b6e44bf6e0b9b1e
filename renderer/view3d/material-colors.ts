/**
 * The terrain's material map as colours: a small RGBA raster over the map, baked once per world
 * (the terrain shader samples it; nothing is done per frame). Colour by material name (sand,
 * grass, asphalt…); a name not in the table gets a stable colour from its letters; the "default"
 * material is transparent (the height or plain colour shows). The regions are the scenario's
 * (sim/dynamics/materials.ts regionContains, first region containing the point wins, as the
 * simulation looks them up). Pure: no three.
 */
import { regionContains } from '../../sim/dynamics/materials';
import type { TerrainMaterialMapSpec } from '../../sim/dynamics/spec';

/** sRGB colours (0xrrggbb) of common ground and body materials. */
export const MATERIAL_COLORS: Readonly<Record<string, number>> = {
  sand: 0xd9c08c,
  grass: 0x5f8f3e,
  asphalt: 0x55565b,
  concrete: 0xa8a8a2,
  gravel: 0x8d877a,
  dirt: 0x7b5d40,
  soil: 0x7b5d40,
  mud: 0x5b4632,
  clay: 0xa5674a,
  rock: 0x7e766b,
  stone: 0x7e766b,
  snow: 0xf1f4f7,
  ice: 0xcde5f1,
  water: 0x3b6fa6,
  wood: 0x9b7653,
  steel: 0x9aa3ad,
  rubber: 0x2c2c2c,
};

/** The name of the material drawn without a tint. */
export const UNTINTED_MATERIAL = 'default';
/** Most texels along the raster's longer side (regions are shapes: finer adds nothing a 4097² grid needs). */
export const MATERIAL_RASTER_MAX = 512;

/** sRGB colour of a material name: the table's, else a stable muted hue from the name. */
export function materialColor(name: string): number {
  const known = MATERIAL_COLORS[name.toLowerCase()];
  if (known !== undefined) return known;
  let h = 0;
  for (let k = 0; k < name.length; k++) h = (h * 31 + name.charCodeAt(k)) >>> 0;
  const hue = (h % 360) / 60, c = 0.35, x = c * (1 - Math.abs((hue % 2) - 1)), m = 0.3;
  const [r, g, b] = hue < 1 ? [c, x, 0] : hue < 2 ? [x, c, 0] : hue < 3 ? [0, c, x] : hue < 4 ? [0, x, c] : hue < 5 ? [x, 0, c] : [c, 0, x];
  return (Math.round((r + m) * 255) << 16) | (Math.round((g + m) * 255) << 8) | Math.round((b + m) * 255);
}

/** The map's extent (world x, y of its first vertex and its size [m]). */
export interface MapExtent {
  x0: number;
  y0: number;
  width: number;
  height: number;
}

export interface MaterialRaster {
  /** RGBA8, row-major from (x0, y0), `cols` × `rows` texels each covering width/cols × height/rows. */
  data: Uint8Array;
  cols: number;
  rows: number;
  /** Materials drawn (names with a tint), in first-seen order; empty: the raster is all transparent. */
  tinted: string[];
}

/**
 * Bakes the map's materials at texel centres. Null when nothing is tinted (the whole terrain is
 * "default" and no region names another material): the shader then skips the lookup.
 */
export function bakeMaterialRaster(map: TerrainMaterialMapSpec | undefined, e: MapExtent): MaterialRaster | null {
  const base = map?.material ?? UNTINTED_MATERIAL;
  const regions = map?.regions ?? [];
  const tinted: string[] = [];
  for (const name of [base, ...regions.map((r) => r.material)]) if (name !== UNTINTED_MATERIAL && !tinted.includes(name)) tinted.push(name);
  if (tinted.length === 0) return null;
  const longer = Math.max(e.width, e.height);
  const cols = Math.max(1, Math.round((MATERIAL_RASTER_MAX * e.width) / longer));
  const rows = Math.max(1, Math.round((MATERIAL_RASTER_MAX * e.height) / longer));
  // RGBA packed little-endian into one 32-bit word per texel (alpha 0: "default", untinted)
  const data = new Uint8Array(cols * rows * 4);
  const words = new Uint32Array(data.buffer);
  const rgba = (name: string): number => {
    if (name === UNTINTED_MATERIAL) return 0;
    const c = materialColor(name);
    return ((255 << 24) | ((c & 255) << 16) | (c & 0xff00) | ((c >> 16) & 255)) >>> 0;
  };
  const baseRgba = rgba(base);
  const regionRgba = regions.map((r) => rgba(r.material));
  const nRegions = regions.length;
  for (let r = 0; r < rows; r++) {
    const y = e.y0 + ((r + 0.5) / rows) * e.height;
    for (let c = 0; c < cols; c++) {
      const x = e.x0 + ((c + 0.5) / cols) * e.width;
      let col = baseRgba;
      for (let k = 0; k < nRegions; k++) {
        if (regionContains(regions[k], x, y)) {
          col = regionRgba[k];
          break;
        }
      }
      words[r * cols + c] = col;
    }
  }
  return { data, cols, rows, tinted };
}

/**
 * [m] A round contour interval (1, 2, 2.5 or 5 × 10ⁿ) giving about `lines` contour lines over a
 * height range; 0 for a flat map.
 */
export function contourInterval(range: number, lines = 15): number {
  if (!(range > 0) || !Number.isFinite(range)) return 0;
  const raw = range / lines;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}
