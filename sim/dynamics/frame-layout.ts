/**
 * The frame layout: how a step's report is laid out in flat typed arrays. One module owns it;
 * the world's report (sim/dynamics/report.ts), the worker protocol's frames (sim/app/protocol.ts,
 * float32 copies of the same layout), the recorder (sim/record/format.ts, frame-delta.ts,
 * capture.ts, foxglove.ts, events.ts) and the renderer (inspector, contact views, plots) all read
 * the strides, offsets and codes below, never literals.
 *
 *   poses        POSE_STRIDE per body:      px py pz qx qy qz qw    (body frame origin, world, z up)
 *   velocities   VELOCITY_STRIDE per body:  vx vy vz wx wy wz       (origin velocity and angular
 *                                                                    velocity, world frame)
 *   contacts     CONTACT_STRIDE per contact:
 *                  px py pz  nx ny nz  depth  normalImpulse  tangentImpulse1 tangentImpulse2
 *                (point on B's surface, unit normal from B into A, depth ≥ 0 [m], impulses [N·s]
 *                 of the last step)
 *   contactInfo  Int32Array, CONTACT_INFO_STRIDE per contact:
 *                  kind bodyA bodyB cellI cellJ
 *                (kind: WheelContactKind 0–4 for cylinder–terrain, CONTACT_KIND_CONVEX_TERRAIN for
 *                 another shape on the terrain, CONTACT_KIND_BODY_PAIR for body–body;
 *                 bodyA/bodyB: body indices, bodyB −1 = the terrain;
 *                 cellI/cellJ: the terrain cell, −1 for body–body contacts)
 *   joints       JOINT_FRAME_STRIDE per joint: coordinate [rad|m], rate [rad/s|m/s], motor effort [N·m|N]
 *
 * Float64 in the world's report; the worker sends float32 copies (poses, velocities, contacts,
 * joints). Recordings store the same layout (sim/record/format.ts says how).
 */

/** Numbers per body in `poses`: position, then quaternion [x, y, z, w]. */
export const POSE_STRIDE = 7;
/** Numbers per body in `velocities`: linear velocity of the body origin, then angular velocity. */
export const VELOCITY_STRIDE = 6;
/** Numbers per contact in `contacts`. */
export const CONTACT_STRIDE = 10;
/** Integers per contact in `contactInfo`. */
export const CONTACT_INFO_STRIDE = 5;
/** Numbers per joint in a frame's `joints`: coordinate, rate, motor effort. */
export const JOINT_FRAME_STRIDE = 3;

/** Offsets inside one contact's CONTACT_STRIDE numbers. */
export const ContactField = {
  /** px py pz: on body B's surface (the terrain's for terrain contacts). */
  Point: 0,
  /** nx ny nz: unit, from B into A. */
  Normal: 3,
  /** [m] ≥ 0 along the normal. */
  Depth: 6,
  /** [N·s] of the last step. */
  NormalImpulse: 7,
  Tangent1Impulse: 8,
  Tangent2Impulse: 9,
} as const;

/** Offsets inside one contact's CONTACT_INFO_STRIDE integers. */
export const ContactInfoField = {
  Kind: 0,
  BodyA: 1,
  /** −1: the terrain. */
  BodyB: 2,
  /** Terrain cell (−1 for body–body contacts). */
  CellI: 3,
  CellJ: 4,
} as const;

/** contactInfo kind of a non-cylinder shape against the terrain (wheel kinds are 0–4, WheelContactKind). */
export const CONTACT_KIND_CONVEX_TERRAIN = 8;
/** contactInfo kind of a body–body contact. */
export const CONTACT_KIND_BODY_PAIR = 9;
