/**
 * Joints: revolute (hinge: wheel axles, steering), fixed, prismatic (suspension), ball (trailer
 * hitch), solved as soft constraints in the same stages as contacts (Box2D v3's joint solver,
 * carried to 3D). This file dispatches by kind; each kind's rows are in its own file
 * (revolute.ts, prismatic.ts, fixed.ts, ball.ts), built from the shared rows of rows.ts; the
 * joint definitions and their state are in store.ts.
 *
 * Frames. Every joint stores its anchor and axis in both bodies' mass frames, taken from the
 * world anchor/axis at the start pose, and the relative orientation q0 = q_A⁻¹·q_B at that pose
 * (the zero of the joint's angle and of a fixed joint's error). "World" as body A is the static
 * terrain slot.
 *
 * Rows, solved in this order so that the hard rows have the last word:
 *   1. spring / damping / joint friction / motor on the joint coordinate (revolute: angle about
 *      the axis; prismatic: slide along it),
 *   2. limits (one-sided, speculative when not yet reached),
 *   3. the locked rows: point (3×3 block: revolute, fixed, ball; prismatic's two perpendicular
 *      rows use their own), angular (revolute 2×2 block perpendicular to the axis; fixed and
 *      prismatic 3×3);
 *   then, after every joint, the coupling rows (URDF <mimic>: one joint's coordinate a linear
 *   function of another's, mimic.ts).
 * Sign convention: the joint coordinate's rate is axis·(ω_B − ω_A) (revolute) or
 * axis·(v_B − v_A at the anchor) (prismatic); a motor's positive target turns/moves B
 * positively about/along the axis relative to A.
 */
import type { BodyStore } from '../bodies';
import { solveBall, warmStartBall } from './ball';
import { solveFixed, warmStartFixed } from './fixed';
import { solveCouplings, warmStartCouplings } from './mimic';
import { measurePrismatic, solvePrismatic, warmStartPrismatic } from './prismatic';
import { measureRevolute, prepareRevolute, solveRevolute, warmStartRevolute } from './revolute';
import type { JointSolveContext } from './rows';
import { JointScratch } from './rows';
import type { JointStore } from './store';
import { JointKind } from './store';

export type { JointSolveContext } from './rows';
export { JointScratch } from './rows';
export type { JointCoupling, JointDef } from './store';
export { JOINT_IMPULSE_STRIDE, JOINT_KIND_NAMES, JointKind, JointStore } from './store';

/**
 * The joints' frames (JointStore.frames) at the bodies' current poses: call before the first
 * substep's warm start and after every position integration (the frame of a substep's relax pass
 * is also the next substep's, as only velocities change between them). Revolute joints use them;
 * the other kinds still compute theirs in each pass.
 */
export function prepareJoints(joints: JointStore, ctx: JointSolveContext): void {
  for (let j = 0; j < joints.defs.length; j++) {
    const def = joints.defs[j];
    if (ctx.invMass[def.bodyA] === 0 && ctx.invMass[def.bodyB] === 0) continue;
    if (def.kind === JointKind.Revolute) prepareRevolute(joints, ctx, j, def);
  }
}

/**
 * One pass over all joints (their frames prepared at the current poses: prepareJoints). useBias: solve stage (soft, corrects drift); false: relax stage
 * (rigid rows without bias). Motors, springs and friction act in both (they are physical); motor
 * and friction impulses accumulate over both, clamped to one substep's effort.
 */
export function solveJoints(joints: JointStore, ctx: JointSolveContext, useBias: boolean): void {
  for (let j = 0; j < joints.defs.length; j++) {
    const def = joints.defs[j];
    if (ctx.invMass[def.bodyA] === 0 && ctx.invMass[def.bodyB] === 0) continue;
    switch (def.kind) {
      case JointKind.Revolute: solveRevolute(joints, ctx, j, def, useBias); break;
      case JointKind.Prismatic: solvePrismatic(joints, ctx, j, def, useBias); break;
      case JointKind.Fixed: solveFixed(joints, ctx, j, def, useBias); break;
      case JointKind.Ball: solveBall(joints, ctx, j, def, useBias); break;
    }
  }
  if (joints.couplings.length > 0) solveCouplings(joints, ctx, useBias);
}

/** Re-applies the accumulated impulses of the last step. */
export function warmStartJoints(joints: JointStore, ctx: JointSolveContext): void {
  joints.frictionImpulse.fill(0);
  for (let j = 0; j < joints.defs.length; j++) {
    const def = joints.defs[j];
    if (ctx.invMass[def.bodyA] === 0 && ctx.invMass[def.bodyB] === 0) continue;
    switch (def.kind) {
      case JointKind.Revolute: warmStartRevolute(joints, ctx, j, def); break;
      case JointKind.Prismatic: warmStartPrismatic(joints, ctx, j, def); break;
      case JointKind.Fixed: warmStartFixed(joints, ctx, j, def); break;
      case JointKind.Ball: warmStartBall(joints, ctx, j, def); break;
    }
  }
  if (joints.couplings.length > 0) warmStartCouplings(joints, ctx);
}

/** Joint coordinates and rates for the report (after the step); 0 for kinds without a coordinate. */
export function measureJoints(joints: JointStore, bodies: BodyStore, js: JointScratch): void {
  for (let j = 0; j < joints.defs.length; j++) {
    const def = joints.defs[j];
    if (def.kind === JointKind.Revolute) measureRevolute(joints, bodies, js, j, def);
    else if (def.kind === JointKind.Prismatic) measurePrismatic(joints, bodies, js, j, def);
    else {
      joints.position[j] = 0;
      joints.velocity[j] = 0;
    }
  }
}
