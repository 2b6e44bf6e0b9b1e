/**
 * Revolute joint (hinge: wheel axles, steering): B turns about the axis relative to A.
 *
 * Rows, in order: the coordinate rows on the angle about the axis (spring, friction, motor,
 * limits: rows.ts solveCoordinateRows, angular), the 2×2 angular lock perpendicular to the axis
 * (error a × b_B), the 3×3 point block. Warm start: the point impulse, and the angular impulse
 * from its two perpendicular coefficients (of p1, p2) plus the axial sum. Measure: the angle
 * and its rate about A's axis.
 */
import type { BodyStore } from '../bodies';
import type { JointScratch, JointSolveContext } from './rows';
import { angK, angVel, applyWarmStart, perpBasis, revoluteAngle, rotateVec, solveAngular, solveCoordinateRows, solvePoint } from './rows';
import type { JointDef, JointStore } from './store';
import { I_ANG, I_LIN, I_LOWER, I_MOTOR, I_SPRING, I_UPPER, JOINT_IMPULSE_STRIDE } from './store';

/** One pass of revolute joint j's rows (useBias: solve stage; false: relax). */
export function solveRevolute(joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef, useBias: boolean): void {
  const js = ctx.scratch, bodies = ctx.bodies, imp = joints.impulses;
  const a = def.bodyA, b = def.bodyB;
  rotateVec(js.rA, bodies.rot, a, def.anchorA);
  rotateVec(js.rB, bodies.rot, b, def.anchorB);
  rotateVec(js.ax, bodies.rot, a, def.axisA);
  perpBasis(js, bodies.rot, a, def);
  rotateVec(js.bx, bodies.rot, b, def.axisB);
  angK(ctx, a, b, js.ax);
  if (js.rowK > 0) {
    js.coordK = js.rowK;
    js.slide = 0;
    solveCoordinateRows(joints, ctx, j, def, a, b, useBias, true);
  }
  solveAngular(ctx, j, def, a, b, useBias, imp, true);
  solvePoint(ctx, j, a, b, useBias, imp);
}

/** Re-applies revolute joint j's accumulated impulses. */
export function warmStartRevolute(joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef): void {
  const js = ctx.scratch, bodies = ctx.bodies, imp = joints.impulses;
  const a = def.bodyA, b = def.bodyB;
  const o = JOINT_IMPULSE_STRIDE * j;
  rotateVec(js.rA, bodies.rot, a, def.anchorA);
  rotateVec(js.rB, bodies.rot, b, def.anchorB);
  rotateVec(js.ax, bodies.rot, a, def.axisA);
  const axial = imp[o + I_MOTOR] + imp[o + I_LOWER] - imp[o + I_UPPER] + imp[o + I_SPRING];
  perpBasis(js, bodies.rot, a, def);
  // the 2 perpendicular angular impulses are stored as coefficients of p1, p2
  const l1 = imp[o + I_ANG], l2 = imp[o + I_ANG + 1];
  const lin = js.linImpulse, ang = js.angImpulse;
  lin[0] = imp[o + I_LIN]; lin[1] = imp[o + I_LIN + 1]; lin[2] = imp[o + I_LIN + 2];
  ang[0] = l1 * js.p1[0] + l2 * js.p2[0] + axial * js.ax[0];
  ang[1] = l1 * js.p1[1] + l2 * js.p2[1] + axial * js.ax[1];
  ang[2] = l1 * js.p1[2] + l2 * js.p2[2] + axial * js.ax[2];
  applyWarmStart(ctx, a, b);
}

/** Revolute joint j's angle [rad] and rate [rad/s] into joints.position, joints.velocity. */
export function measureRevolute(joints: JointStore, bodies: BodyStore, js: JointScratch, j: number, def: JointDef): void {
  const a = def.bodyA, b = def.bodyB;
  rotateVec(js.ax, bodies.rot, a, def.axisA);
  revoluteAngle(js, bodies, def, a, b);
  joints.position[j] = js.angle;
  angVel(js, bodies, a, b, js.ax);
  joints.velocity[j] = js.rate;
}
