/**
 * Every tolerance and tuning constant of the simulation core, with its unit. Algorithms import
 * from here; a bare `1e-6` inside an algorithm is a bug. Where a tolerance is a length it is
 * derived from LINEAR_SLOP, the distance below which two surfaces count as touching.
 *
 * Add new constants in the section of the module that owns them, with a comment that says what
 * the number means and why it has this size.
 */

// ---------------------------------------------------------------------------------------------
// Global length scale
// ---------------------------------------------------------------------------------------------

/** [m] Contact slop: penetration the solver tolerates without pushing back (Box2D's b2_linearSlop scaled to robots). */
export const LINEAR_SLOP = 0.005;

/** [m] Geometric length below which two points are the same point (1 µm). */
export const GEOMETRIC_EPSILON = 1e-6;

/** [-] Relative tolerance for float64 comparisons of unit-scale quantities (dot products of unit vectors). */
export const UNIT_EPSILON = 1e-12;

// ---------------------------------------------------------------------------------------------
// Terrain
// ---------------------------------------------------------------------------------------------

// Terrain loaders (sim/terrain/load-terrain.ts, png-decode.ts, geotiff-decode.ts)

/** [-] Loaders call onProgress at least this often, as a fraction of the whole load (5 %). */
export const TERRAIN_PROGRESS_STEP = 0.05;

/** [bytes] Compressed bytes handed to the streaming inflater per step; sets progress granularity (256 KiB). */
export const TERRAIN_INFLATE_SLICE_BYTES = 1 << 18;

/** [-] Most entries accepted in one TIFF IFD: real DEMs have ~20; more means a corrupt or hostile file. */
export const TIFF_MAX_IFD_ENTRIES = 4096;

/** [m] WGS84 semi-major axis (NIMA TR8350.2, table 3.1), for degrees → metres on geographic DEMs. */
export const WGS84_SEMI_MAJOR_AXIS = 6378137;

/** [-] WGS84 flattening 1/f (NIMA TR8350.2, table 3.1). */
export const WGS84_INVERSE_FLATTENING = 298.257223563;

/** [m] International foot (EPSG:9002). */
export const INTERNATIONAL_FOOT = 0.3048;

/** [m] US survey foot (EPSG:9003), 1200/3937 m. */
export const US_SURVEY_FOOT = 1200 / 3937;

/**
 * [m] Height difference under which the four corners of a cell count as coplanar for the paper's
 * element classification (rectangle vs two triangles). 1 nm: far below any real DEM's
 * resolution (a 16-bit map over 100 m quantises to 1.5 mm), so only exactly planar cells pass.
 */
export const TERRAIN_PLANARITY_TOLERANCE = 1e-9;

/** [-] Largest heightfield accepted, in vertices along one axis. 16385² float64 = 2 GiB: beyond is an error, not a slow load. */
export const TERRAIN_MAX_VERTICES_PER_AXIS = 16385;

/** [-] Smallest heightfield: one cell. */
export const TERRAIN_MIN_VERTICES_PER_AXIS = 2;

// ---------------------------------------------------------------------------------------------
// Cylinder–terrain (sim/collision/cylinder-terrain/)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Convex narrow phase: GJK, EPA, SAT, hulls (sim/collision/, sim/shapes/)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Manifolds, clipping, convex–heightfield, dispatcher (sim/collision/)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Broad phase (sim/collision/broadphase/)
// ---------------------------------------------------------------------------------------------

/**
 * [m] Fattening margin added on every side of a proxy's tight AABB (Box2D's b2_aabbMargin,
 * 0.1 m = 20 linear slops). A body may drift this far before its tree leaf must be re-inserted;
 * larger margins mean fewer re-insertions but more candidate pairs for the narrow phase.
 */
export const BROADPHASE_AABB_MARGIN = 20 * LINEAR_SLOP;

/** [-] Nodes the dynamic tree allocates up front (grows by doubling beyond). */
export const TREE_INITIAL_NODE_CAPACITY = 64;

/**
 * [-] Hard cap on dynamic-tree nodes (2^26, ~33 M proxies). Pair keys pack two node indices
 * into one float64 as a * 2^26 + b, which stays an exact integer below 2^52.
 */
export const TREE_MAX_NODES = 1 << 26;

// ---------------------------------------------------------------------------------------------
// World, robot, stepping (sim/world.ts, sim/robot/, sim/dynamics/)
// ---------------------------------------------------------------------------------------------
