/**
 * The one error type of URDF and robot-mesh import, and the caps that keep a hostile or broken
 * file from taking the loader down (sizes checked before anything big is allocated).
 *
 * Every message says what is wrong, where (link, joint or file), and what to fix, e.g.
 *   link "wheel_fl": <inertial><mass value="0"> must be > 0 kg (give the link its real mass)
 */
export class UrdfError extends Error {
  /**
   * What the message is about: a link or joint name, a location such as `link "x" <collision> #2`,
   * or a mesh file (empty when the whole file is meant).
   */
  readonly where: string;

  constructor(message: string, where = '') {
    super(message);
    this.name = 'UrdfError';
    this.where = where;
  }
}

/** [bytes] Largest URDF text accepted (hand-written and xacro-expanded robots are far smaller). */
export const URDF_MAX_BYTES = 8 * 1024 * 1024;
/** Most links (and joints) in one robot. */
export const URDF_MAX_LINKS = 1000;
/** Most <collision> or <visual> elements on one link. */
export const URDF_MAX_GEOMETRIES_PER_LINK = 64;
/** [m] Largest box edge, cylinder length, radius or mesh extent. */
export const URDF_MAX_SIZE = 1000;
/** [m] Largest |coordinate| of an origin (a robot is not kilometres across). */
export const URDF_MAX_OFFSET = 10_000;
/** [rad] Largest |roll|, |pitch|, |yaw| of an origin (anything bigger is degrees or garbage). */
export const URDF_MAX_ANGLE = 1000;
/** [kg] Largest link mass. */
export const URDF_MAX_MASS = 1e7;
/**
 * [kg] Smallest link mass: 1 mg. Dummy links in real files weigh 1e-3 to 1e-5 kg; below this a
 * body's inverse mass swamps the solver (1e-300 kg loaded and faulted at step 1, issue #28).
 */
export const URDF_MIN_MASS = 1e-6;
/** [kg·m²] Smallest diagonal moment of inertia: a 1 mg point 1 mm from the axis. */
export const URDF_MIN_INERTIA = 1e-12;
/** [kg·m²] Largest diagonal moment of inertia: URDF_MAX_MASS at URDF_MAX_SIZE. */
export const URDF_MAX_INERTIA = 1e13;
/**
 * [m] Smallest box edge, cylinder length or radius, sphere radius: 0.1 mm, far below the contact
 * slop (5 mm), so only nonsense is refused (a 1e-300 m wheel loaded and never moved, issue #28).
 */
export const URDF_MIN_SIZE = 1e-4;
/** Largest mesh scale factor per axis. */
export const URDF_MAX_MESH_SCALE = 1e4;

/** [bytes] Largest mesh file accepted. */
export const MESH_MAX_BYTES = 64 * 1024 * 1024;
/** Most triangles in one mesh (collision or visual). */
export const MESH_MAX_TRIANGLES = 2_000_000;
/** Most vertices in one OBJ file. */
export const MESH_MAX_VERTICES = 3_000_000;
