/**
 * Tuning of the rigid-body world, one block with units. The solver is a soft-step solver in the
 * manner of Box2D v3 (Catto, "Solver2D" and "Soft Step" notes): each constraint is a damped
 * spring given by a stiffness in hertz and a damping ratio, turned per substep into a bias rate,
 * a mass scale and an impulse scale (soft.ts).
 */

import { LINEAR_SLOP } from '../constants';

// [m] Length below which geometry is "touching", the speculative margin is derived from it: the
// engine's one LINEAR_SLOP (sim/constants.ts), re-exported for the dynamics modules.
export { LINEAR_SLOP };

/**
 * [m] Contacts are created when the surfaces are closer than this (speculative contacts). A
 * separated contact only removes the approach velocity that would close the gap within the
 * substep, so resting bodies keep their contacts (and the app shows them) with no jitter.
 */
export const SPECULATIVE_DISTANCE = 4 * LINEAR_SLOP;

/**
 * [m] Speculative distance of box and hull contacts with the terrain (polytope-terrain.ts) for
 * a body at rest; it grows by POLYTOPE_SPECULATIVE_STEPS steps of the body's motion (centre
 * speed + bounding radius × |ω|), up to SPECULATIVE_DISTANCE. A speculative contact at
 * separation s only acts on a body that would close s within the step, so a resting rock needs
 * the near ones only (on rough ground it otherwise carried ~15, most 2–20 mm away). Body pairs
 * use the same rule with both bodies' motion summed (collide.ts pairContacts): in a settled pile
 * of 300 boxes, 2 cm for every pair kept ~690 speculative contacts and one island that could not
 * sleep until every box was still. What the bound cannot see is speed a body gains within the
 * step (a resting box hit by another): it then closes a gap beyond the margin unchecked, by at
 * most a step of that speed, and the overlap is pushed out as any other.
 */
export const POLYTOPE_SPECULATIVE_MIN = LINEAR_SLOP / 2;
/** Steps of motion added to POLYTOPE_SPECULATIVE_MIN. */
export const POLYTOPE_SPECULATIVE_STEPS = 2;
/**
 * [cells] Boxes and hulls whose bounding radius is at most this many terrain cells use the
 * closed-form polytope–terrain routine: rocks (1–2 cells) and a chassis (a 1.0 × 0.6 × 0.3 m box
 * spans about 12 cells of 5 cm). Its cost grows with the grid vertices under the body: 17–27 µs
 * for such a chassis resting on the terrain, where the general routine (GJK per element) takes
 * 0.3–0.5 ms (docs/benchmarks.md). Larger bodies (a platform of several metres) keep the general
 * routine, whose per-query cell limit bounds its work; so does a query with more candidates than
 * the routine's workspace holds (PolytopeTerrainWorkspace: a large box lying flat on a fine grid).
 * A compound's box and hull parts follow the same rule (collideShapeHeightfield's clearance).
 */
export const POLYTOPE_TERRAIN_MAX_CELLS = 32;

/** [m] Extra fattening of body AABBs in the broad phase, beyond the motion of the step. */
export const BROADPHASE_FAT_MARGIN = 0.05;

/**
 * [Hz] Stiffness of contact constraints (capped at a quarter of the substep rate). Box2D v3 uses
 * 30 Hz; a 40 kg rover on 0.15 m wheels then rests 1.5 mm deep in the ground. 120 Hz gives
 * 0.11 mm (rover on flat ground, dt 1/240, 4 substeps), which is what "sinkage" users measure.
 */
export const CONTACT_HERTZ = 120;
/**
 * [m] Overlap beyond which a contact with the terrain (or a static or kinematic body) stiffens:
 * its stiffness is CONTACT_HERTZ × (depth / CONTACT_STIFFEN_DEPTH)², so its restoring force
 * grows with the fifth power of the depth, up to CONTACT_STIFFEN_MAX_RATE × the substep rate. A
 * soft row is a spring on the moving body's own effective mass, so a wheel carrying L × its mass
 * through its joint rests about L·g/ω² deep: the Curiosity model (about 150 kg on each 2.07 kg
 * wheel) sank 5.7 mm into the hills at a constant 120 Hz, 0.8 mm now. Shallower contacts (a 40 kg
 * rover rests 0.08 mm deep) and contacts of a body that another moving body presses on keep
 * CONTACT_HERTZ: a light box under a 50 kg one, its ground contact stiffened, gained 0.7 J at rest
 * (two stiff soft rows in series, Gauss–Seidel), and stacks keep their mass-ratio limits.
 */
export const CONTACT_STIFFEN_DEPTH = 0.5e-3;
/**
 * Largest stiffness of a deep ground contact as a fraction of the substep rate (480 Hz at dt
 * 1/240 and 4 substeps). Box2D v3 makes static contacts twice its contact stiffness, within
 * half the substep rate; CONTACT_HERTZ itself is capped at a quarter.
 */
export const CONTACT_STIFFEN_MAX_RATE = 0.5;
/** Damping ratio of contact constraints (strongly over-damped: no bounce from penetration recovery). */
export const CONTACT_DAMPING_RATIO = 10;
/** [m/s] Largest speed at which overlap is pushed out (keeps deep overlaps from exploding). */
export const CONTACT_MAX_PUSHOUT_SPEED = 3;

/** [Hz] Stiffness of joint constraints. */
export const JOINT_HERTZ = 60;
/** Damping ratio of joint constraints. */
export const JOINT_DAMPING_RATIO = 2;

/** [m/s] Approach speed below which restitution is ignored (resting contacts do not bounce). */
export const RESTITUTION_THRESHOLD = 1;

/** [rad] Largest rotation of a body in one substep (guards the quaternion integration). */
export const MAX_ROTATION_PER_SUBSTEP = 0.25 * Math.PI;

/**
 * [m/s] A body counts as still when its centre's speed and the speed its rotation gives its
 * farthest point (bounding radius × |ω|) are both below this (Box2D v3's rule: one threshold
 * for any size of body).
 */
export const SLEEP_SPEED = 0.05;
/**
 * [m] A body also counts as still while it stays within this distance of the pose where its
 * still period began (centre of mass, and bounding radius × rotation angle), whatever its
 * instantaneous speed. A rock balanced on a terrain peak rocks by ±2–4 mm with speed bursts of
 * 0.05–0.1 m/s for seconds (its support jumps between the peak's feature pairs: a known
 * narrow-phase defect, see docs/benchmarks.md); anything that really moves leaves this ball within a
 * fraction of TIME_TO_SLEEP (at SLEEP_SPEED in 0.1 s) and keeps its timer at 0. Over the 0.5 s
 * still period this is a mean speed below 1 cm/s (Jolt: its points within 15 mm over 0.5 s;
 * Box2D v3: below 5 cm/s throughout). Was 1 mm: in the vehicle scene 23 bodies were awake per
 * step on average, now 17.
 */
export const SLEEP_DRIFT = 0.005;
/** [s] A whole island must be still this long before it sleeps. */
export const TIME_TO_SLEEP = 0.5;

/** Fault limits: past these the world pauses with a report instead of continuing. */
/** [m/s] */
export const FAULT_MAX_SPEED = 5000;
/** [rad/s] */
export const FAULT_MAX_ANGULAR_SPEED = 10_000;
/** [m] Deepest contact accepted before the world reports an explosion. */
export const FAULT_MAX_DEPTH = 1;
/** [m] Largest coordinate of a body. */
export const FAULT_MAX_COORDINATE = 1e6;

/**
 * Armature of light middle links. A body joined to two or more others (an Ackermann steering
 * knuckle: 0.3 kg, 8·10⁻⁵ kg·m², between a 30 kg chassis and a 1 kg wheel) passes every impulse
 * between its neighbours; with one solver pass per substep a link 100× lighter in rotation than
 * them absorbs the correction instead of passing it on, and the steered wheel lags its knuckle by
 * 10° (the car turned on a 6.4 m circle instead of 2.8 m). Such a body's principal inertias are
 * raised to at least this fraction of the smallest of its neighbours' largest principal inertia
 * (MuJoCo's joint armature does the same job). Leaf bodies (wheels) are left as they are.
 */
export const MIDDLE_LINK_INERTIA_RATIO = 0.2;

/**
 * Continuous collision (ccd.ts): a body moving more than this fraction of its smallest extent in
 * one step is cast along its motion. Below it, the speculative contacts catch everything.
 */
export const CCD_MOTION_FRACTION = 0.25;
/** [m] Skin by which a body's cast core is smaller than its shape (≤ a quarter of its smallest extent). */
export const CCD_SKIN = 2 * LINEAR_SLOP;
/**
 * [rad²] Continuous collision: a cast's rotation over the step (after removing the spin about a
 * round shape's axis of symmetry, which does not move its surface) whose squared length is below
 * this, i.e. under 1 µrad, is dropped: the cast is purely linear.
 */
export const CCD_NEGLIGIBLE_ROTATION_SQ = 1e-12;
/**
 * [-] Continuous collision, rotation vector of a unit quaternion (x, y, z, w): below this
 * s = |(x, y, z)| = sin(θ/2), the factor θ/s is taken at its limit 2 (its relative error there,
 * θ²/24, is below 1e-24; dividing by s would amplify round-off).
 */
export const CCD_SMALL_ANGLE_SIN = 1e-12;

/** Warm starting: a new contact takes the impulses of an old one of the same pair within this distance [m]. */
export const WARM_START_MATCH_DISTANCE = 0.02;
/** ... and whose normal is within acos(this) of the new one. */
export const WARM_START_MATCH_COS = 0.95;

/** Default material when a scenario names none. */
export const DEFAULT_FRICTION = 0.8;
export const DEFAULT_RESTITUTION = 0;
export const DEFAULT_ROLLING_RESISTANCE = 0;

/** Most bodies in one world (pair keys pack two body indices into one number). */
export const MAX_BODIES = 1 << 20;
/** Contacts kept per step per body, used to size the contact store (it grows, at step boundaries only). */
export const CONTACTS_PER_BODY = 16;
/**
 * Most body pairs whose AABBs overlap that one step hands to the narrow phase. Past it the world
 * pauses with a fault naming the most overlapped bodies instead of colliding them: 2,000 boxes
 * placed inside each other (2M pairs) took 82 s for 2 steps at 6.5 GB (issue #28). A resting pile
 * touches ~6–12 neighbours per body, so this is a dense pile of some 10–20 thousand bodies; the
 * contact store is then bounded by this times the manifold points per pair.
 */
export const MAX_BODY_PAIRS = 1 << 17;
