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

/**
 * [m] Round-off length: two lengths (heights, depths, distances) closer than this are the same
 * for every exactness test (1 nm: far above float64 round-off of coordinates up to ~1e5 m, far
 * below any real feature; a 16-bit DEM over 100 m quantises to 1.5 mm). The tolerances below that
 * mean "equal up to round-off" are this one constant under the name of their use.
 */
export const ROUND_OFF_LENGTH = 1e-9;

/** [-] Round-off of unit-scale ratios (sines, cosines, slopes, relative sizes): 1e-9, the same idea as ROUND_OFF_LENGTH for dimensionless quantities. */
export const ROUND_OFF_RATIO = 1e-9;

/**
 * [-] Norm at or below which a direction or a quaternion given as input (a joint axis, a body's
 * orientation) is zero: it has no direction to normalise to and is rejected with an error naming
 * the field (the world builder, the URDF and scenario loaders). ROUND_OFF_RATIO: any intended
 * direction, however badly scaled, is far longer.
 */
export const MIN_DIRECTION_NORM = ROUND_OFF_RATIO;

// ---------------------------------------------------------------------------------------------
// Manifold reduction (sim/collision/reduce-manifold.ts): the one reducer of every manifold
// ---------------------------------------------------------------------------------------------

/**
 * [rad] The one normal-grouping angle: contacts whose normals are within it form one patch for
 * manifold reduction (every manifold: wheels, face clipping, convex bodies and rocks on terrain),
 * persistent manifolds match old points within it, and a terrain crease bent by more than it is
 * "active" (gets its own edge normal; Jolt's ActiveEdges idea). 10°: adjacent facets of smooth
 * ground (a 5 cm grid on a 1 m-radius bump: 2.9°) share a patch, so a wheel or a box on it gets
 * one manifold of ≤ 4 points, not one per facet; a curb (63° on a 5 cm grid) or a ridge does not,
 * so the solver keeps a separate normal for each side of a real corner.
 */
export const MANIFOLD_GROUP_ANGLE = (10 * Math.PI) / 180;

/** [-] cos MANIFOLD_GROUP_ANGLE: two unit normals with a dot product at least this share a group. */
export const MANIFOLD_GROUP_COS = Math.cos(MANIFOLD_GROUP_ANGLE);

/** [-] Most points kept per normal group (one manifold): 4 span any planar support polygon. */
export const MANIFOLD_MAX_POINTS = 4;

/**
 * [-] Default capacity of a reduction's normal groups (ManifoldGroups). A wheel or a body on
 * rough ground makes a handful; beyond it the extra normals join their nearest group and the
 * status says so.
 */
export const MANIFOLD_MAX_NORMAL_GROUPS = 32;

/**
 * [m] When every point of a group is closer than this to the line through its deepest point
 * and the point farthest from it, the group is a LINE contact (a lying wheel's side, a box edge
 * on a face) and keeps only its two extreme points (and its deepest, if deeper than both; the
 * paper's stage 4, |P1P2 × P1P3| < ε). A tenth of the linear slop: 0.5 mm, a width that gives
 * the solver no useful lever arm.
 */
export const MANIFOLD_LINE_CONTACT_DISTANCE = 0.1 * LINEAR_SLOP;

/**
 * [m] Reduction tie tolerance: a point must be farther (or deeper) by more than this to replace
 * the current choice, so float round-off (1e-16 m) never flips between equal points — the
 * selection stays put while a body moves and when the terrain array is shifted. ROUND_OFF_LENGTH.
 */
export const MANIFOLD_TIE_TOLERANCE = ROUND_OFF_LENGTH;

/**
 * [m] A candidate at least this deep (depth ≥ −this) is TOUCHING; a shallower one is a
 * speculative point (not yet touching, within the speculative distance). The reduction picks its
 * points among the touching ones first and fills the remaining slots with speculative extremes,
 * so a resting body keeps every support it stands on (a rock on a crest touching at two points
 * kept one of them beside three far speculative corners, and which one flipped as it rocked). A
 * tenth of the linear slop: 0.5 mm, above the depth noise of a resting contact.
 */
export const MANIFOLD_TOUCH_DISTANCE = 0.1 * LINEAR_SLOP;

// ---------------------------------------------------------------------------------------------
// Terrain
// ---------------------------------------------------------------------------------------------

// File-format limits of the terrain loaders live next to their loaders: progress.ts,
// inflate-bounded.ts, plausibility.ts, tiff-container.ts, geotiff-georef.ts, geotiff-raster.ts.

/**
 * [m] Height difference under which the four corners of a cell count as coplanar for the paper's
 * element classification (rectangle vs two triangles). 1 nm: far below any real DEM's
 * resolution (a 16-bit map over 100 m quantises to 1.5 mm), so only exactly planar cells pass.
 */
export const TERRAIN_PLANARITY_TOLERANCE = ROUND_OFF_LENGTH;

/**
 * [-] Largest heightfield accepted, in vertices along one axis. 16385² vertices take ≈ 3.9 GiB
 * (float64 heights 2 GiB + min/max pyramid 1.4 GiB + element kinds 0.27 GiB): beyond is an error, not a slow load.
 */
export const TERRAIN_MAX_VERTICES_PER_AXIS = 16385;

/** [-] Smallest heightfield: one cell. */
export const TERRAIN_MIN_VERTICES_PER_AXIS = 2;

// ---------------------------------------------------------------------------------------------
// Cylinder–terrain (sim/collision/cylinder-terrain/)
// ---------------------------------------------------------------------------------------------

/**
 * [m] Broad phase ε_H (paper §III step 5): when H_max − H_min over the cylinder's cell range is
 * below this, the patch is one horizontal plane and the exact cylinder–plane test replaces the
 * per-element narrow phase. 1 nm, like TERRAIN_PLANARITY_TOLERANCE: only truly flat patches,
 * because the flat path's points are exact and a tilted patch must not take it.
 */
export const CYLINDER_TERRAIN_FLAT_PATCH_TOLERANCE = TERRAIN_PLANARITY_TOLERANCE;

/**
 * [-] sin of the angle between the cylinder axis and an element normal below which the axis
 * counts as parallel to the normal (standing exactly upright): the "down" radial direction w is
 * then undefined and is taken along the cell's x edge (paper §IV, w = V0V1/|V0V1| when v ∥ n_P).
 * 1e-9 rad: below it w·n differs from −sinθ by round-off only.
 */
export const CYLINDER_TERRAIN_PARALLEL_SIN = ROUND_OFF_RATIO;

/**
 * [m] Margin of the narrow phase's quick tests (cell-cull.ts: the per-cell bound and the element
 * screen): an element is skipped before its frame is built only when the cylinder is above its plane, or the
 * foot of the lowest line is outside the element, by more than this. The quick test works on
 * unnormalised quantities, so its round-off differs from the exact path's; with the margin it
 * never rejects an element the exact path would keep. 0.1 µm: far above float64 round-off of
 * coordinates below 1e5 m, far below any cell size.
 */
export const CYLINDER_TERRAIN_REJECT_MARGIN = 1e-7;

/**
 * [-] ε_v of the paper's stage 3 (eq. 13): an edge point nearer to a base than to the side gets
 * the base normal ±v only if |v·n_P| exceeds this, i.e. the axis is not parallel to the element
 * (otherwise the base normal would push sideways along the ground). sin 0.06°.
 */
export const CYLINDER_TERRAIN_AXIS_PARALLEL_EPSILON = 1e-3;

/**
 * [-] Bend of an internal terrain edge (vertical drop of the neighbour element's far vertex below
 * this element's plane, per metre of horizontal distance from the edge) whose magnitude at or
 * below this makes the edge FLAT: the two faces are one plane, so a seam point is never the
 * deepest point nor the end of a patch and produces no contact (no ghost contacts on seams).
 * Concave edges (bend below minus this) end face patches but never produce edge contacts.
 * 1e-9 m per m: exact coplanarity up to float64 round-off of heights of order 1e3 m.
 */
export const CYLINDER_TERRAIN_FLAT_EDGE_BEND = ROUND_OFF_RATIO;

/**
 * [-] Bend (drop per metre, ≈ tan of the dihedral angle) from which a convex terrain edge is
 * "active" (Jolt's ActiveEdges idea): it gets its own radial/axial contact normal and kind
 * 'edge'. Gentler convex edges (seams of a smooth hill, fractal ground) keep the element's face
 * normal so a wheel rolling over them sees no ghost normal. tan 10° ≈ 0.176: a curb (63° here)
 * or a ridge is active; a 5 cm grid on a 1 m-radius bump (2.9°) is not.
 */
export const CYLINDER_TERRAIN_ACTIVE_EDGE_BEND = Math.tan(MANIFOLD_GROUP_ANGLE);

/**
 * [m] Element walls (cylinder-terrain/element-walls.ts): an element's own deepest point is not
 * added when a reported contact of the same patch is at most this much shallower (or a reported
 * contact resolves the element to within this). 10 µm: a fifth of the completeness oracle's
 * 0.05 mm tolerance, far below what a solver resolves, and it spares a second manifold reduction
 * for elements a few micrometres deeper along their own normal than the patch's deepest point.
 */
export const CYLINDER_TERRAIN_DEPTH_RESOLUTION = 1e-5;

/**
 * [-] Element walls: rounds of "add the walls no reported contact resolves, reduce again" per
 * query. A round can drop a contact that resolved another element, so the check is repeated;
 * on the benchmark scene a first round adds walls in 67 % of queries, a second in 2.4 %, a third never (1,000 poses).
 */
export const CYLINDER_TERRAIN_WALL_PASSES = 3;

/** [-] Capacity of the per-query candidate contact buffer (before reduction). Overflow is reported. */
export const CYLINDER_TERRAIN_MAX_CANDIDATES = 1024;

/**
 * [-] Most cells one query visits (AABB footprint). A wheel r = 0.3 m on a 5 cm grid covers
 * ~170; 128² leaves room for coarse-to-fine mismatches. Beyond it the query is truncated and
 * the status says so (never thrown).
 */
export const CYLINDER_TERRAIN_MAX_CELLS = 128 * 128;


/**
 * [-] Broad phase: cell ranges up to this many cells get H_min/H_max by reading their heights
 * directly; larger ones use the heightfield's min/max pyramid (cellRangeMinMax). 1024 cells
 * ≈ 1100 loads, about what a pyramid descent costs in node bookkeeping.
 */
export const CYLINDER_TERRAIN_DIRECT_SCAN_CELLS = 1024;

/**
 * [-] Engine API: the axis passed to collideCylinderTerrainInto must satisfy |‖v‖² − 1| ≤ this
 * (callers normalise once; a non-unit axis scales every s-value and is rejected as invalid input).
 */
export const CYLINDER_TERRAIN_AXIS_UNIT_TOLERANCE = ROUND_OFF_RATIO;

// ---------------------------------------------------------------------------------------------
// Convex narrow phase: GJK, EPA, SAT, hulls (sim/collision/, sim/shapes/)
// ---------------------------------------------------------------------------------------------

/** [-] GJK iteration cap. Polytopes converge in < 10 iterations; curved shapes (full sphere/cylinder support) in < 40 at 1e-10 relative tolerance. */
export const GJK_MAX_ITERATIONS = 64;

/**
 * [-] GJK relative termination: stop when ‖v‖² − v·w ≤ GJK_RELATIVE_TOLERANCE·‖v‖² (van den Bergen
 * 2003 §4.3.6: the lower bound v·w/‖v‖ is within this fraction of the upper bound ‖v‖). 1e-10 keeps
 * ~5 significant digits of the distance on curved shapes while polytopes exit exactly.
 */
export const GJK_RELATIVE_TOLERANCE = 1e-10;

/** [m] GJK absolute termination: a distance below this counts as touching (1 nm, far below LINEAR_SLOP). */
export const GJK_ABSOLUTE_TOLERANCE = ROUND_OFF_LENGTH;

/**
 * [-] Relative size below which a simplex is degenerate: a segment with ‖b−a‖² ≤ ε·scale², a triangle
 * with ‖n‖² ≤ ε·scale⁴, a tetrahedron with |det| ≤ ε·scale⁶ (scale = largest vertex norm). The
 * sub-algorithm then drops to the lower-dimensional features instead of dividing by ~0.
 */
export const GJK_DEGENERATE_RELATIVE = 1e-14;

/** [-] EPA iteration cap (each iteration adds one support point). Polytope pairs need ~10; a cylinder rim seen along its corner region needs up to ~200 (fuzz over 1e-3..10 m aspect ratios: 7 of 12240 overlaps still hit 256 and return the conservative fallback). */
export const EPA_MAX_ITERATIONS = 256;

/** [-] EPA polytope vertex capacity (fixed arrays; exceeding it ends EPA with status OutOfMemory). */
export const EPA_MAX_VERTICES = 512;

/** [-] EPA polytope face capacity (Euler: F ≤ 2V − 4 live faces; dead faces are recycled). */
export const EPA_MAX_FACES = 1024;

/**
 * [-] EPA relative termination: stop when the support point along the nearest face normal is
 * within this fraction of (depth + size of A − B) of that face (upper and lower depth bounds
 * meet). Relative to the size, not the depth alone, so a shallow contact on a big curved shape
 * (a 10 m drum 1 mm into a box) stops at 10 µm instead of chasing nanometres along the rim.
 */
export const EPA_RELATIVE_TOLERANCE = 1e-6;

/** [m] EPA absolute termination on the depth (1 nm). */
export const EPA_ABSOLUTE_TOLERANCE = ROUND_OFF_LENGTH;

/** [-] Cap on GJK ray-cast / shape-cast iterations (van den Bergen 2004). */
export const GJK_CAST_MAX_ITERATIONS = 64;

/** [m] GJK ray-cast termination: the ray point is within this distance of the shape (0.1 µm). */
export const GJK_CAST_TOLERANCE = 1e-7;

/** [-] Conservative advancement (shape-cast.ts): cap on GJK calls per time-of-impact query. A fast spin near a grazing pass closes the gap slowly (the angular bound dominates); beyond the cap the result is MaxIterations with a safe lower-bound time. */
export const CA_MAX_ITERATIONS = 64;

/**
 * [m] Conservative advancement stops this far apart (a speculative contact then catches the
 * rest): half the linear slop, so the solver starts from a gap it treats as touching.
 */
export const CA_TARGET_DISTANCE = 0.5 * LINEAR_SLOP;

/** [m] Accepted band above CA_TARGET_DISTANCE (Box2D b2TimeOfImpact: a quarter of the slop). */
export const CA_TOLERANCE = 0.25 * LINEAR_SLOP;

/** [-] Segments of the regular polygon that stands for a cylinder's cap disc in supportingFace (manifold clipping). 16 keeps the polygon within 2% of the radius. */
export const CYLINDER_CAP_SEGMENTS = 16;

/** [-] Capacity of a supporting face polygon (hull faces with more vertices are truncated and flagged). */
export const SUPPORT_FACE_MAX_VERTICES = 32;

/**
 * [-] Convex hull distance tolerance relative to the point cloud's extent (sum of |max coordinate|
 * per axis, as qhull's DISTround): a point closer than this to a face plane is on it. 1e-10 of a
 * 10 m rock is 1 nm.
 */
export const HULL_DISTANCE_RELATIVE = 1e-10;

/** [-] Cosine slack for merging adjacent hull triangles into one polygon face: merge when n₁·n₂ ≥ 1 − this (≈ 0.08°). */
export const HULL_COPLANAR_COS_SLACK = 1e-6;

/**
 * [-] Coplanar-face merge distance relative to the cloud's extent: an adjacent triangle joins a
 * polygon face only if its vertices lie within this · extent of the seed triangle's plane (and
 * its normal within HULL_COPLANAR_COS_SLACK). 1e-9: exact on float64 input that was planar
 * before rounding, so merged faces stay planar to ~1 nm on a 1 m part.
 */
export const HULL_MERGE_DISTANCE_RELATIVE = ROUND_OFF_RATIO;

/**
 * [-] Hulls with at least this many vertices find support points by hill climbing over the
 * vertex adjacency (a local maximum of a linear function on a convex polytope's vertex graph is
 * global) instead of a linear scan. Below it the flat scan wins: fewer branches, no neighbour
 * lookups. Not finely tuned: a rough probe on the shared 2-core machine gave GJK on 64-vertex
 * hulls (climbing) ~1.5x the query rate of 32-vertex hulls (scanning).
 */
export const HULL_HILL_CLIMB_MIN_VERTICES = 48;

/** [-] Maximum number of vertices a hull may keep (bigger clouds are built, then rejected with status TooManyVertices). */
export const HULL_MAX_VERTICES = 4096;

/** [-] Jacobi eigen-solver sweeps for symmetric 3×3 matrices (converges quadratically; 6 sweeps reach float64 precision). */
export const JACOBI_MAX_SWEEPS = 16;

/**
 * [-] An inertia tensor is degenerate (not positive definite) when, scaled by its largest entry,
 * a leading principal minor (Sylvester's criterion) is at most this: rounding, not physics
 * (the URDF loader's check, parse-urdf.ts).
 */
export const INERTIA_DEGENERATE_RELATIVE = 1e-12;

// ---------------------------------------------------------------------------------------------
// Manifolds, clipping, convex–heightfield, dispatcher (sim/collision/)
// ---------------------------------------------------------------------------------------------

/**
 * [-] Relative threshold under which two segments count as parallel in closest-point queries:
 * |u×v|² ≤ ε·|u|²|v|², i.e. sin²(angle) ≤ 1e-12 (angle below 1 µrad). Below it the line
 * solution divides by round-off.
 */
export const SEGMENT_PARALLEL_EPSILON = 1e-12;

/**
 * [-] SAT box–box: an edge–edge axis whose cross product has |e_A × e_B|² below this (relative to
 * unit edges) is skipped (Habr SAT article: near-zero cross products are not axes). sin² = 1e-10,
 * about 10 µrad; the face axes already cover parallel edges.
 */
export const SAT_EDGE_PARALLEL_EPSILON = 1e-10;

/**
 * [-] SAT box–box: prefer a face axis over an edge axis unless the edge axis separates by more
 * than this fraction (edge separation > face separation·(1 − tol) − abs tol). Faces give
 * 4-point manifolds; without the bias, a resting box flips between face and edge normals as
 * round-off wobbles the overlaps (Box2D/Bullet use the same relative/absolute bias pair).
 */
export const SAT_FACE_PREFERENCE_RELATIVE = 0.05;

/** [m] Absolute part of the face-axis preference (a tenth of the linear slop). */
export const SAT_FACE_PREFERENCE_ABSOLUTE = 0.1 * LINEAR_SLOP;

/**
 * [m] Speculative margin: contact points up to this far apart along the normal are still
 * reported (with negative depth) so the solver can stop an approaching body before it
 * penetrates. Two linear slops, as Box2D v3's b2_speculativeDistance is 4 slops at its scale.
 */
export const CONTACT_SPECULATIVE_MARGIN = 2 * LINEAR_SLOP;

/**
 * [-] Capacity of the polygon scratch buffers used by face clipping: an incident face of up to
 * CLIP_MAX_FACE_VERTICES vertices clipped by up to as many side planes gains at most one vertex
 * per plane.
 */
export const CLIP_MAX_FACE_VERTICES = 32;
/** [-] Capacity of one clipped polygon: a face of CLIP_MAX_FACE_VERTICES plus one vertex per side plane. */
export const CLIP_MAX_POLYGON_VERTICES = 2 * CLIP_MAX_FACE_VERTICES;

/**
 * [m] Persistent manifolds: a new contact without a matching feature id inherits the impulses of
 * an old point closer than this (Bullet's contact breaking threshold idea, scaled to one slop
 * times four: 2 cm).
 */
export const PERSISTENT_MATCH_DISTANCE = 4 * LINEAR_SLOP;

/**
 * [-] Convex–heightfield: a GJK edge/vertex contact whose normal is within 0.5° of the element's
 * face normal (n·n_P ≥ cos 0.5° ≈ 0.99996) is a face contact that belongs to a neighbouring
 * element's prism, not an edge contact: it is dropped here and found there.
 */
export const HEIGHTFIELD_SAME_NORMAL_COS = 0.99996;

/** [-] Capacity of the per-query candidate contact buffer of convex–heightfield (before reduction). */
export const HEIGHTFIELD_CANDIDATE_CAPACITY = 256;

/** [-] Most terrain cells one convex–heightfield query visits; a larger AABB footprint reports overflow. */
export const HEIGHTFIELD_MAX_CELLS_PER_QUERY = 4096;

/**
 * [-] Elements remembered per convex–heightfield query for the inactive-crease fallback: every
 * element near the body without a face contact (a 0.6 m sphere over a 5 cm grid straddles ~300),
 * so the crease the body actually rests on is never among those left out.
 */
export const HEIGHTFIELD_FALLBACK_ELEMENTS = 1024;

/**
 * [-] Slack of the convex–heightfield edge-cone test (a dot product of unit normals): the GJK
 * normal is converged to GJK_RELATIVE_TOLERANCE, not to the last bit, so a normal exactly on a
 * face normal must not be rejected by round-off.
 */
export const HEIGHTFIELD_EDGE_CONE_SLACK = 1e-6;

/**
 * [-] Capsule–capsule: axes with |cos| at least this (about 2.6°) count as parallel and get a
 * two-point manifold along the overlap, so a capsule lying on another does not roll on one
 * jittering point. Same order as Jolt's capsule-capsule parallel tolerance.
 */
export const CAPSULE_PARALLEL_COS = 0.999;

/**
 * [m] Below this distance between cores (segment–segment, segment–box) the direction between
 * closest points is round-off and the penetration routine (SAT) takes over: the geometric ε.
 */
export const CORE_TOUCH_DISTANCE = GEOMETRIC_EPSILON;

/**
 * [-] Convex–convex manifolds: a supporting polygon serves as the reference face only if its
 * plane normal is within this cosine of the EPA axis (cos 15°). Beyond it the contact is an
 * edge–edge or vertex one and clipping a tilted face would invent points; Jolt gates on a
 * similar angle between the face normal and the penetration axis.
 */
export const MANIFOLD_FACE_ALIGN_COS = 0.9659;

/**
 * [-] Reference face choice: B's face becomes the reference only if it is better aligned with
 * the axis than A's by more than this (hysteresis, so the reference does not flip between two
 * nearly parallel faces from one step to the next; Box2D's k_relativeTol idea).
 */
export const MANIFOLD_REFERENCE_BIAS = 1e-3;

/**
 * [-] Convex–heightfield active creases: the crease between two elements can produce its own
 * (edge) contact normal only if their normals differ by more than 10° (n₁·n₂ < cos 10°) and it is
 * convex. Gentler creases are the facets of a smooth surface: the faces' own contacts cover them
 * (a sphere sinks at most r(1 − cos 5°) ≈ 0.4 % of r into such a crease), and an edge normal
 * there would be a ghost. Same 10° as the cylinder–terrain module's active-edge bend, so wheels
 * and bodies see the same creases; Jolt's default active-edge threshold is 5°.
 */
export const HEIGHTFIELD_ACTIVE_EDGE_COS = MANIFOLD_GROUP_COS;

// ---------------------------------------------------------------------------------------------
// Swept queries: swept-sphere primitives, heightfield casts, time of impact (sim/collision/swept/,
// sim/collision/heightfield-cast/)
// ---------------------------------------------------------------------------------------------

/**
 * [-] Swept sphere vs an edge: a motion whose angle with the edge has sin² below this (1e-12:
 * about 1 µrad) counts as parallel to it. The line quadratic's leading coefficient
 * |e|²|D|²·sin² is then round-off, so its root is skipped and the edge's end vertices decide.
 * Also the zero-area test of a triangle (|n|² ≤ this · its longest side⁴). Planes need none:
 * n·D = 0 is a miss, and a tiny approach gives a root beyond the step.
 */
export const SWEPT_PARALLEL_EPSILON = 1e-12;

/**
 * [m] Heightfield casts test elements as solid prisms (the element and its column down to the
 * terrain's lowest vertex) for convex shapes; the prism's floor lies this far below the lowest
 * vertex, so even a flat map's prisms have volume. One cell-scale metre would do; a linear slop
 * is enough because only the top face is ever reached from above.
 */
export const HEIGHTFIELD_CAST_PRISM_FLOOR = LINEAR_SLOP;

/**
 * [-] Heightfield casts: most grid-walk steps (cells the path's centre crosses) per cast. A
 * 1,000 m/s body over one 1/240 s step on a 5 cm grid crosses ~170; beyond the cap the cast stops
 * and reports status Truncated (the hit found so far, if any, is still the earliest before it).
 */
export const HEIGHTFIELD_CAST_MAX_STEPS = 1 << 16;

/**
 * [-] Heightfield casts: a walk step's cell range up to this many cells gets its highest vertex
 * by reading the corner heights (≤ ~290 loads); larger ones from the min/max pyramid, whose
 * descent costs about as much node bookkeeping (as CYLINDER_TERRAIN_DIRECT_SCAN_CELLS).
 */
export const HEIGHTFIELD_CAST_DIRECT_SCAN_CELLS = 256;

/**
 * [m] Wheel cast: the contacts at the time of impact are taken with the cylinder pushed this far
 * along −normal (into the terrain), since at exact touch every depth is 0 and the analytic query
 * reports only depth > 0; their depths are reported minus this probe (so ≈ 0). A tenth of the slop.
 */
export const WHEEL_CAST_CONTACT_PROBE = 0.1 * LINEAR_SLOP;

/**
 * [-] Plain castShape / castShapeTerrain: a GJK cast that stops at GJK_CAST_MAX_ITERATIONS with a
 * safe lower bound is restarted from that pose at most this many times.
 */
export const CAST_MAX_RESTARTS = 4;

// ---------------------------------------------------------------------------------------------
// Broad phase (sim/collision/broadphase/)
// ---------------------------------------------------------------------------------------------

/**
 * [m] Fattening margin added on every side of a proxy's tight AABB (Box2D's b2_aabbMargin,
 * 0.1 m = 20 linear slops). A body may drift this far before its tree leaf must be re-inserted;
 * larger margins mean fewer re-insertions but more candidate pairs for the narrow phase.
 */
export const BROADPHASE_AABB_MARGIN = 20 * LINEAR_SLOP;

/**
 * [-] A re-inserted fat box is stretched by this many steps' worth of displacement in the
 * direction of motion (Box2D v2's b2_aabbMultiplier = 4): steady movers re-insert about 4x less.
 */
export const BROADPHASE_DISPLACEMENT_MULTIPLIER = 4;

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
