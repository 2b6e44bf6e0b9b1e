/**
 * Fixed joint (welds): B keeps its pose relative to A. Rows: the 3×3 angular lock (error from
 * q_B·(q_A·q0)⁻¹), then the 3×3 point block. It has no coordinate: its measure is 0.
 */
import type { JointSolveContext } from './rows';
import { applyWarmStart, rotateVec, solveAngular, solvePoint } from './rows';
import type { JointDef, JointStore } from './store';
import { I_ANG, I_LIN, JOINT_IMPULSE_STRIDE } from './store';

/** One pass of fixed joint j's rows (useBias: solve stage; false: relax). */
export function solveFixed(joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef, useBias: boolean): void {
  const js = ctx.scratch, bodies = ctx.bodies, imp = joints.impulses;
  const a = def.bodyA, b = def.bodyB;
  rotateVec(js.rA, bodies.rot, a, def.anchorA);
  rotateVec(js.rB, bodies.rot, b, def.anchorB);
  rotateVec(js.ax, bodies.rot, a, def.axisA);
  solveAngular(ctx, j, def, a, b, useBias, imp);
  solvePoint(ctx, j, a, b, useBias, imp);
}

/** Re-applies fixed joint j's accumulated point and angular impulses. */
export function warmStartFixed(joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef): void {
  const js = ctx.scratch, bodies = ctx.bodies, imp = joints.impulses;
  const a = def.bodyA, b = def.bodyB;
  const o = JOINT_IMPULSE_STRIDE * j;
  rotateVec(js.rA, bodies.rot, a, def.anchorA);
  rotateVec(js.rB, bodies.rot, b, def.anchorB);
  const lin = js.linImpulse, ang = js.angImpulse;
  lin[0] = imp[o + I_LIN]; lin[1] = imp[o + I_LIN + 1]; lin[2] = imp[o + I_LIN + 2];
  ang[0] = imp[o + I_ANG]; ang[1] = imp[o + I_ANG + 1]; ang[2] = imp[o + I_ANG + 2];
  applyWarmStart(ctx, a, b);
}
