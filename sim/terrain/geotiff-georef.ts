/**
 * GeoTIFF georeferencing: from the model tags and GeoKeys of a parsed TIFF (tiff-container.ts) to
 * the grid spacing in metres, the orientation of the raster and where it sits on Earth.
 *
 * Read: ModelPixelScaleTag (33550) + ModelTiepointTag (33922), or ModelTransformationTag (34264)
 * without rotation; GeoKeyDirectoryTag (34735) for GTModelType (projected vs geographic),
 * GTRasterType (PixelIsArea vs PixelIsPoint), EPSG codes, ProjLinearUnits / GeogAngularUnits /
 * VerticalUnits (metre, foot, US survey foot, kilometre; degree, radian).
 *
 * Metres. Projected CRS: horizontal spacing converted from the CRS's linear unit to metres.
 * Geographic CRS (degrees): converted at the latitude of the map's centre with the WGS84
 * ellipsoid's meridional radius M(φ) and prime-vertical radius N(φ):
 *   metres per degree of latitude  = (π/180)·M(φ),  M = a(1−e²) / (1 − e² sin²φ)^{3/2}
 *   metres per degree of longitude = (π/180)·N(φ)·cos φ,  N = a / sqrt(1 − e² sin²φ)
 * (any geographic datum is treated as WGS84; the difference is far below a DEM pixel). A note in
 * the result says so and how much the east–west scale varies between the map's south and north
 * edges — the regular grid cannot represent that, so large geographic tiles are distorted.
 * Heights: VerticalUnits converted to metres; absent = metres.
 *
 * Orientation: image row 0 is NORTH when the pixel scale's y is positive (the GeoTIFF norm,
 * Y = Y_tie − row·Sy). A south-up raster (Sy < 0) is read without flipping. A raster mirrored
 * east–west (Sx < 0) or rotated (transformation with shear terms) is rejected.
 *
 * Vertex position: PixelIsArea (default) puts a pixel's height at its centre, PixelIsPoint at its
 * raster coordinate; geo.southWest is the CRS position of the south-west VERTEX either way.
 *
 * Plausibility: the spacing in metres must lie in plausibility.ts's range (a pixel scale of 1e308
 * or 1e-320 is rejected naming the tag), and every model coordinate must be finite.
 */
import { isPlausibleSpacing, SPACING_RANGE_TEXT } from './plausibility';
import { TAG, type TiffContainer, tiffFail } from './tiff-container';

/** [m] WGS84 semi-major axis (NIMA TR8350.2, table 3.1), for degrees → metres on geographic DEMs. */
export const WGS84_SEMI_MAJOR_AXIS = 6378137;

/** [-] WGS84 flattening 1/f (NIMA TR8350.2, table 3.1). */
export const WGS84_INVERSE_FLATTENING = 298.257223563;

/** [m] International foot (EPSG:9002). */
export const INTERNATIONAL_FOOT = 0.3048;

/** [m] US survey foot (EPSG:9003), 1200/3937 m. */
export const US_SURVEY_FOOT = 1200 / 3937;

/** Largest GeoKey count read (the directory's count is a SHORT). */
const MAX_GEOKEYS = 0xffff;

/** Where a GeoTIFF sits on the Earth: its CRS and how its units were converted to metres. */
export interface GeoReference {
  /** 'projected': linear CRS units converted to metres; 'geographic': degrees converted at the map's latitude. */
  kind: 'projected' | 'geographic';
  /** EPSG code of the CRS if the file states one (ProjectedCSTypeGeoKey / GeographicTypeGeoKey). */
  epsg?: number;
  /** CRS coordinates of the south-west vertex, in the CRS's own units (e.g. metres, or degrees lon/lat). */
  southWest: [number, number];
  /** Pixel spacing in the CRS's own units. */
  pixelSize: [number, number];
  /** Geographic only: [deg] latitude at which degrees were converted to metres. */
  conversionLatitude?: number;
  /** 'area' (PixelIsArea, heights at pixel centres) or 'point' (PixelIsPoint). */
  rasterType: 'area' | 'point';
}

/** What the raster decoder and the loader need from the georeferencing. */
export interface GeoGrid {
  /** [m] Spacing along x (east) and y (north). */
  dx: number;
  dy: number;
  /** Undefined when the file has no georeferencing and the sidecar's spacing was used. */
  geo?: GeoReference;
  /** True if image row 0 is the north edge (flip rows into the grid). */
  northUp: boolean;
  /** [m per file unit] Multiplier from stored samples to metres (VerticalUnits). */
  zScale: number;
  notes: string[];
}

// GeoKeys (GeoTIFF 1.1 §7.4).
const KEY = {
  GTModelType: 1024,
  GTRasterType: 1025,
  GeographicType: 2048,
  GeogAngularUnits: 2054,
  ProjectedCSType: 3072,
  ProjLinearUnits: 3076,
  VerticalUnits: 4099,
} as const;

function unitToMetres(code: number, what: string): number {
  switch (code) {
    case 9001: return 1;
    case 9002: return INTERNATIONAL_FOOT;
    case 9003: return US_SURVEY_FOOT;
    case 9036: return 1000; // kilometre
    default: return tiffFail(`${what} unit EPSG:${code} is not supported (metre 9001, foot 9002, US survey foot 9003, kilometre 9036)`);
  }
}

function readGeoKeys(tiff: TiffContainer): Map<number, number> {
  const keys = new Map<number, number>();
  const d = tiff.numbers(TAG.GeoKeyDirectory, 'GeoKeyDirectory', 4, 4 + 4 * MAX_GEOKEYS);
  if (d === undefined) return keys;
  const nKeys = d[3];
  if (!Number.isInteger(nKeys) || nKeys < 0 || d.length < 4 + 4 * nKeys) {
    tiffFail(`GeoKeyDirectory declares ${nKeys} keys but holds ${d.length} values`);
  }
  for (let k = 0; k < nKeys; k++) {
    const id = d[4 + 4 * k];
    const location = d[5 + 4 * k];
    const value = d[7 + 4 * k];
    if (location === 0) keys.set(id, value); // short values stored inline; we need no double/ascii keys
  }
  return keys;
}

/**
 * Georeferencing of a `width` × `height` raster. `metersPerPixel` (from a sidecar) is required
 * when the file has none. Throws TerrainError naming the tag at fault.
 */
export function readGeoReference(tiff: TiffContainer, width: number, height: number, metersPerPixel?: [number, number]): GeoGrid {
  const notes: string[] = [];
  const keys = readGeoKeys(tiff);
  const scale = tiff.numbers(TAG.ModelPixelScale, 'ModelPixelScale', 2, 3);
  const tie = tiff.numbers(TAG.ModelTiepoint, 'ModelTiepoint', 6, 6);
  const xform = tiff.numbers(TAG.ModelTransformation, 'ModelTransformation', 16, 16);
  // Raster (col, row) → CRS (X, Y): X = ox + col·sx, Y = oy − row·sy.
  let sx = 0;
  let sy = 0;
  let ox = 0;
  let oy = 0;
  let source = '';
  if (xform !== undefined) {
    const m = xform;
    if (m[1] !== 0 || m[4] !== 0) tiffFail('rotated or sheared rasters (ModelTransformationTag with off-diagonal terms) are not supported; warp to a north-up grid first');
    sx = m[0];
    sy = -m[5];
    ox = m[3];
    oy = m[7];
    source = 'ModelTransformation';
  } else if (scale !== undefined && tie !== undefined) {
    sx = scale[0];
    sy = scale[1];
    // Tiepoint (I, J, K, X, Y, Z): raster (I, J) ↦ (X, Y).
    ox = tie[3] - tie[0] * sx;
    oy = tie[4] + tie[1] * sy;
    source = 'ModelPixelScale/ModelTiepoint';
  }
  const georeferenced = source !== '';
  if (georeferenced && !(Number.isFinite(sx) && Number.isFinite(sy) && sx !== 0 && sy !== 0 && Number.isFinite(ox) && Number.isFinite(oy))) {
    tiffFail(`invalid georeferencing in ${source}: pixel scale [${sx}, ${sy}], origin [${ox}, ${oy}] (must be finite, scale non-zero)`);
  }
  if (georeferenced && sx < 0) tiffFail('raster is mirrored east–west (negative x pixel scale); not supported');

  const modelType = keys.get(KEY.GTModelType) ?? 0;
  if (modelType === 3) tiffFail('geocentric (ECEF) rasters are not supported; a DEM needs a projected or geographic CRS');
  const rasterType: 'area' | 'point' = keys.get(KEY.GTRasterType) === 2 ? 'point' : 'area';
  const northUp = sy > 0 || !georeferenced;
  const absSy = Math.abs(sy);

  let dx: number;
  let dy: number;
  let geo: GeoReference | undefined;
  if (!georeferenced) {
    if (metersPerPixel === undefined) {
      tiffFail('no georeferencing (no ModelPixelScale/ModelTiepoint or ModelTransformation tag); give "metersPerPixel" in a sidecar');
    }
    [dx, dy] = metersPerPixel;
    notes.push(`no georeferencing in the file; spacing [${dx}, ${dy}] m from the sidecar, row 0 taken as north`);
  } else {
    // CRS coordinates of the centre of image pixel (col, row) → of vertex (i, j).
    const half = rasterType === 'area' ? 0.5 : 0;
    const westX = ox + half * sx;
    const southRow = northUp ? height - 1 : 0;
    const southY = oy - (southRow + half) * sy;
    if (modelType === 2) {
      let toDegrees = 1;
      const angular = keys.get(KEY.GeogAngularUnits);
      if (angular === 9101) toDegrees = 180 / Math.PI;
      else if (angular !== undefined && angular !== 9102) tiffFail(`geographic angular unit EPSG:${angular} is not supported (degree 9102, radian 9101)`);
      const degX = sx * toDegrees;
      const degY = absSy * toDegrees;
      const latS = southY * toDegrees;
      const latN = latS + (height - 1) * degY;
      if (!(latS >= -90 && latN <= 90)) tiffFail(`latitudes ${latS}..${latN}° are outside −90..90°: georeferencing is not in degrees`);
      const lat = (latS + latN) / 2;
      const mLat = metresPerDegreeLatitude(lat);
      const mLon = metresPerDegreeLongitude(lat);
      dx = degX * mLon;
      dy = degY * mLat;
      const spread = Math.abs(metresPerDegreeLongitude(latS) - metresPerDegreeLongitude(latN)) / mLon;
      const epsg = keys.get(KEY.GeographicType);
      geo = { kind: 'geographic', southWest: [westX * toDegrees, latS], pixelSize: [degX, degY], conversionLatitude: lat, rasterType };
      if (epsg !== undefined && epsg !== 32767) geo.epsg = epsg;
      notes.push(
        `geographic CRS${geo.epsg ? ` (EPSG:${geo.epsg})` : ''}: pixel ${degX.toPrecision(6)}° × ${degY.toPrecision(6)}° converted to ` +
          `${dx.toPrecision(6)} m × ${dy.toPrecision(6)} m at latitude ${lat.toFixed(4)}° (WGS84); the east–west scale varies by ` +
          `${(spread * 100).toPrecision(2)} % between the south and north edges, which the regular grid ignores`,
      );
    } else {
      const unitCode = keys.get(KEY.ProjLinearUnits);
      const unit = unitCode === undefined ? 1 : unitToMetres(unitCode, 'projected linear');
      dx = sx * unit;
      dy = absSy * unit;
      const epsg = keys.get(KEY.ProjectedCSType);
      geo = { kind: 'projected', southWest: [westX, southY], pixelSize: [sx, absSy], rasterType };
      if (epsg !== undefined && epsg !== 32767) geo.epsg = epsg;
      if (modelType !== 1) notes.push('no GTModelTypeGeoKey: assuming a projected CRS in metres');
      if (unit !== 1) notes.push(`projected CRS units EPSG:${unitCode} converted to metres (× ${unit})`);
    }
    if (!northUp) notes.push('raster is stored south-up (positive y pixel scale in the transform); read without flipping');
    // A (geographic) spacing can be plausible only at some latitudes (cos φ → 0 at the poles):
    // checked here only when the sidecar gives no override (then the sidecar's value is used).
    if (metersPerPixel === undefined && !(isPlausibleSpacing(dx) && isPlausibleSpacing(dy))) {
      tiffFail(`pixel spacing from ${source} is [${dx}, ${dy}] m; it must be ${SPACING_RANGE_TEXT} (give "metersPerPixel" in a sidecar to override)`);
    }
  }
  let zScale = 1;
  const vUnit = keys.get(KEY.VerticalUnits);
  if (vUnit !== undefined && vUnit !== 32767) {
    zScale = unitToMetres(vUnit, 'vertical');
    if (zScale !== 1) notes.push(`heights converted from EPSG:${vUnit} units to metres (× ${zScale})`);
  }
  const grid: GeoGrid = { dx, dy, northUp, zScale, notes };
  if (geo) grid.geo = geo;
  return grid;
}

/** WGS84 first eccentricity squared, e² = f(2 − f). */
const E2 = (2 - 1 / WGS84_INVERSE_FLATTENING) / WGS84_INVERSE_FLATTENING;

/** [m] Length of one degree of latitude at geodetic latitude `lat` degrees: (π/180)·M(φ). */
export function metresPerDegreeLatitude(lat: number): number {
  const s = Math.sin((lat * Math.PI) / 180);
  const w = 1 - E2 * s * s;
  return ((Math.PI / 180) * WGS84_SEMI_MAJOR_AXIS * (1 - E2)) / (w * Math.sqrt(w));
}

/** [m] Length of one degree of longitude at geodetic latitude `lat` degrees: (π/180)·N(φ)·cos φ. */
export function metresPerDegreeLongitude(lat: number): number {
  const phi = (lat * Math.PI) / 180;
  const s = Math.sin(phi);
  return ((Math.PI / 180) * WGS84_SEMI_MAJOR_AXIS * Math.cos(phi)) / Math.sqrt(1 - E2 * s * s);
}
