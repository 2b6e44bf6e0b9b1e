/**
 * Prismatic joint (suspension): B slides along the axis relative to A, without turning.
 *
 * A's arm is extended to B's anchor (rA + d, d = the anchors' separation), so the linear rows
 * see A's rotation of the axis. Rows, in order: the coordinate rows on the slide a·d (spring,
 * friction, motor, limits: rows.ts solveCoordinateRows, linear), the 3×3 angular lock (error
 * from q_B·(q_A·q0)⁻¹), the two perpendicular linear rows along p1, p2 (errors p·d). Warm
 * start: the angular impulse, and the linear impulse from the axial sum and the two
 * perpendicular coefficients. Measure: the slide and its rate.
 */
import type { BodyStore } from '../bodies';
import type { JointScratch, JointSolveContext } from './rows';
import { applyWarmStart, linK, linVel, perpBasis, rotateVec, solveAngular, solveCoordinateRows, solvePerpRow } from './rows';
import type { JointDef, JointStore } from './store';
import { I_ANG, I_LOWER, I_MOTOR, I_PERP, I_SPRING, I_UPPER, JOINT_IMPULSE_STRIDE } from './store';

/** One pass of prismatic joint j's rows (useBias: solve stage; false: relax). */
export function solvePrismatic(joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef, useBias: boolean): void {
  const js = ctx.scratch, bodies = ctx.bodies, imp = joints.impulses;
  const a = def.bodyA, b = def.bodyB;
  rotateVec(js.rA, bodies.rot, a, def.anchorA);
  rotateVec(js.rB, bodies.rot, b, def.anchorB);
  rotateVec(js.ax, bodies.rot, a, def.axisA);
  perpBasis(js, bodies.rot, a, def);
  // A's arm extended to B's anchor (d), so the rows see A's rotation of the axis
  const pos = bodies.pos;
  const dx = pos[3 * b] + js.rB[0] - pos[3 * a] - js.rA[0];
  const dy = pos[3 * b + 1] + js.rB[1] - pos[3 * a + 1] - js.rA[1];
  const dz = pos[3 * b + 2] + js.rB[2] - pos[3 * a + 2] - js.rA[2];
  js.rA[0] += dx; js.rA[1] += dy; js.rA[2] += dz; // rA now reaches B's anchor
  linK(ctx, a, b, js.rA, js.rB, js.ax);
  if (js.rowK > 0) {
    js.coordK = js.rowK;
    js.slide = js.ax[0] * dx + js.ax[1] * dy + js.ax[2] * dz;
    solveCoordinateRows(joints, ctx, j, def, a, b, useBias, false);
  }
  solveAngular(ctx, j, def, a, b, useBias, imp);
  // two perpendicular linear rows, errors p·d
  js.perpError = js.p1[0] * dx + js.p1[1] * dy + js.p1[2] * dz;
  solvePerpRow(ctx, j, a, b, useBias, imp, js.p1, 0);
  js.perpError = js.p2[0] * dx + js.p2[1] * dy + js.p2[2] * dz;
  solvePerpRow(ctx, j, a, b, useBias, imp, js.p2, 1);
}

/** Re-applies prismatic joint j's accumulated impulses. */
export function warmStartPrismatic(joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef): void {
  const js = ctx.scratch, bodies = ctx.bodies, imp = joints.impulses;
  const a = def.bodyA, b = def.bodyB;
  const o = JOINT_IMPULSE_STRIDE * j;
  rotateVec(js.rA, bodies.rot, a, def.anchorA);
  rotateVec(js.rB, bodies.rot, b, def.anchorB);
  rotateVec(js.ax, bodies.rot, a, def.axisA);
  const axial = imp[o + I_MOTOR] + imp[o + I_LOWER] - imp[o + I_UPPER] + imp[o + I_SPRING];
  perpBasis(js, bodies.rot, a, def);
  // A's arm reaches B's anchor
  const pos = bodies.pos;
  js.tmp[0] = pos[3 * b] + js.rB[0] - pos[3 * a];
  js.tmp[1] = pos[3 * b + 1] + js.rB[1] - pos[3 * a + 1];
  js.tmp[2] = pos[3 * b + 2] + js.rB[2] - pos[3 * a + 2];
  js.rA[0] = js.tmp[0]; js.rA[1] = js.tmp[1]; js.rA[2] = js.tmp[2];
  const q1 = imp[o + I_PERP], q2 = imp[o + I_PERP + 1];
  const lin = js.linImpulse, ang = js.angImpulse;
  lin[0] = axial * js.ax[0] + q1 * js.p1[0] + q2 * js.p2[0];
  lin[1] = axial * js.ax[1] + q1 * js.p1[1] + q2 * js.p2[1];
  lin[2] = axial * js.ax[2] + q1 * js.p1[2] + q2 * js.p2[2];
  ang[0] = imp[o + I_ANG]; ang[1] = imp[o + I_ANG + 1]; ang[2] = imp[o + I_ANG + 2];
  applyWarmStart(ctx, a, b);
}

/** Prismatic joint j's slide [m] and rate [m/s] into joints.position, joints.velocity. */
export function measurePrismatic(joints: JointStore, bodies: BodyStore, js: JointScratch, j: number, def: JointDef): void {
  const a = def.bodyA, b = def.bodyB;
  rotateVec(js.ax, bodies.rot, a, def.axisA);
  rotateVec(js.rA, bodies.rot, a, def.anchorA);
  rotateVec(js.rB, bodies.rot, b, def.anchorB);
  const pos = bodies.pos;
  const dx = pos[3 * b] + js.rB[0] - pos[3 * a] - js.rA[0];
  const dy = pos[3 * b + 1] + js.rB[1] - pos[3 * a + 1] - js.rA[1];
  const dz = pos[3 * b + 2] + js.rB[2] - pos[3 * a + 2] - js.rA[2];
  joints.position[j] = js.ax[0] * dx + js.ax[1] * dy + js.ax[2] * dz;
  js.rA[0] += dx; js.rA[1] += dy; js.rA[2] += dz;
  linVel(js, bodies, a, b, js.rA, js.rB, js.ax);
  joints.velocity[j] = js.rate;
}
