/**
 * Coupling row (URDF `<mimic joint multiplier offset>`): the follower joint's coordinate is tied
 * to the leader's,
 *
 *     C = q_f − m·q_l − o = 0,        Ċ = J_f·v − m·J_l·v
 *
 * where q is a revolute angle (rows.ts revoluteAngle) or a prismatic slide (a·d), and J the row
 * of that coordinate's rate (revolute: ±axis on the two bodies' angular velocities; prismatic:
 * ±axis on the linear velocities and the arms' moments, A's arm reaching B's anchor). One scalar
 * row over up to four bodies (follower A, B; leader A, B): bodies that appear twice (a rocker
 * differential's two rockers share the chassis) have their Jacobian entries summed before the
 * effective mass K = Σ J·M⁻¹·Jᵀ is formed, or K would miss the cross terms.
 *
 * Solved like the joints' locked rows: soft with bias in the solve stage (Box2D v3's soft step,
 * the joints' hertz), rigid without bias in the relax stage, warm-started from the accumulated
 * impulse (JointStore.couplingImpulse, saved state). Runs after every joint's own rows.
 *
 * Revolute angles are measured in (−π, π]: the error is wrapped into that range, which is exact
 * for |m| = 1 and for joints that stay within ±π (limited joints, which is where URDF uses mimic);
 * a continuous leader with |m| ≠ 1 wraps wrongly once it passes ±π.
 */
import type { BodyStore } from '../bodies';
import type { JointScratch, JointSolveContext } from './rows';
import { revoluteAngle, rotateVec } from './rows';
import type { JointCoupling, JointDef, JointStore } from './store';
import { JointKind } from './store';

/** Entries of the coupling row: follower A, B, leader A, B (fewer after merging shared bodies). */
export const COUPLING_MAX_ENTRIES = 4;
/** Floats per entry of JointScratch.cJ: linear (3), angular (3). */
const ENTRY = 6;

/**
 * Adds joint `def`'s coordinate-rate Jacobian, scaled by `s`, to the scratch entries (merging
 * into an entry of the same body), and returns the coordinate (angle or slide).
 */
function addCoordinateRow(js: JointScratch, bodies: BodyStore, def: JointDef, s: number): number {
  const a = def.bodyA, b = def.bodyB;
  rotateVec(js.ax, bodies.rot, a, def.axisA);
  if (def.kind === JointKind.Revolute) {
    revoluteAngle(js, bodies, def, a, b);
    const ax = js.ax;
    addEntry(js, a, 0, 0, 0, -s * ax[0], -s * ax[1], -s * ax[2]);
    addEntry(js, b, 0, 0, 0, s * ax[0], s * ax[1], s * ax[2]);
    return js.angle;
  }
  // prismatic: rate = ax·(v_B + ω_B×rB − v_A − ω_A×(rA + d)); (ω×r)·ax = ω·(r×ax)
  rotateVec(js.rA, bodies.rot, a, def.anchorA);
  rotateVec(js.rB, bodies.rot, b, def.anchorB);
  const pos = bodies.pos, ax = js.ax, rB = js.rB;
  // A's arm reaching B's anchor: (x_B + rB) − x_A
  const ux = pos[3 * b] + rB[0] - pos[3 * a], uy = pos[3 * b + 1] + rB[1] - pos[3 * a + 1], uz = pos[3 * b + 2] + rB[2] - pos[3 * a + 2];
  const slide = ax[0] * (ux - js.rA[0]) + ax[1] * (uy - js.rA[1]) + ax[2] * (uz - js.rA[2]);
  addEntry(js, a, -s * ax[0], -s * ax[1], -s * ax[2], -s * (uy * ax[2] - uz * ax[1]), -s * (uz * ax[0] - ux * ax[2]), -s * (ux * ax[1] - uy * ax[0]));
  addEntry(js, b, s * ax[0], s * ax[1], s * ax[2], s * (rB[1] * ax[2] - rB[2] * ax[1]), s * (rB[2] * ax[0] - rB[0] * ax[2]), s * (rB[0] * ax[1] - rB[1] * ax[0]));
  return slide;
}

function addEntry(js: JointScratch, body: number, lx: number, ly: number, lz: number, wx: number, wy: number, wz: number): void {
  let k = 0;
  while (k < js.cCount && js.cBody[k] !== body) k++;
  if (k === js.cCount) {
    js.cBody[k] = body;
    js.cJ.fill(0, ENTRY * k, ENTRY * k + ENTRY);
    js.cCount++;
  }
  const o = ENTRY * k, J = js.cJ;
  J[o] += lx; J[o + 1] += ly; J[o + 2] += lz;
  J[o + 3] += wx; J[o + 4] += wy; J[o + 5] += wz;
}

/** Builds coupling c's row into the scratch; returns its position error C. */
function buildRow(joints: JointStore, js: JointScratch, bodies: BodyStore, c: JointCoupling): number {
  js.cCount = 0;
  const f = joints.defs[c.follower], l = joints.defs[c.leader];
  const qf = addCoordinateRow(js, bodies, f, 1);
  const ql = addCoordinateRow(js, bodies, l, -c.multiplier);
  let err = qf - c.multiplier * ql - c.offset;
  if (f.kind === JointKind.Revolute) err = Math.atan2(Math.sin(err), Math.cos(err));
  return err;
}

/** K = Σ J·M⁻¹·Jᵀ over the entries the solver may move (invMass > 0). */
function rowMass(ctx: JointSolveContext): number {
  const js = ctx.scratch, J = js.cJ, I = ctx.bodies.invInertiaWorld;
  let k = 0;
  for (let e = 0; e < js.cCount; e++) {
    const b = js.cBody[e], m = ctx.invMass[b];
    if (!(m > 0)) continue;
    const o = ENTRY * e, i = 9 * b;
    const x = J[o + 3], y = J[o + 4], z = J[o + 5];
    k += m * (J[o] * J[o] + J[o + 1] * J[o + 1] + J[o + 2] * J[o + 2]);
    k += x * (I[i] * x + I[i + 3] * y + I[i + 6] * z) + y * (I[i + 1] * x + I[i + 4] * y + I[i + 7] * z) + z * (I[i + 2] * x + I[i + 5] * y + I[i + 8] * z);
  }
  return k;
}

/** Ċ = Σ J·v. */
function rowRate(ctx: JointSolveContext): number {
  const js = ctx.scratch, J = js.cJ, v = ctx.bodies.linVel, w = ctx.bodies.angVel;
  let r = 0;
  for (let e = 0; e < js.cCount; e++) {
    const b = js.cBody[e], o = ENTRY * e;
    r += J[o] * v[3 * b] + J[o + 1] * v[3 * b + 1] + J[o + 2] * v[3 * b + 2];
    r += J[o + 3] * w[3 * b] + J[o + 4] * w[3 * b + 1] + J[o + 5] * w[3 * b + 2];
  }
  return r;
}

/** Applies impulse λ along the row: Δv = M⁻¹·Jᵀ·λ on every body the solver may move. */
function rowApply(ctx: JointSolveContext, lambda: number): void {
  const js = ctx.scratch, J = js.cJ, v = ctx.bodies.linVel, w = ctx.bodies.angVel, I = ctx.bodies.invInertiaWorld;
  for (let e = 0; e < js.cCount; e++) {
    const b = js.cBody[e], m = ctx.invMass[b];
    if (!(m > 0)) continue;
    const o = ENTRY * e, i = 9 * b;
    v[3 * b] += m * lambda * J[o]; v[3 * b + 1] += m * lambda * J[o + 1]; v[3 * b + 2] += m * lambda * J[o + 2];
    const x = lambda * J[o + 3], y = lambda * J[o + 4], z = lambda * J[o + 5];
    w[3 * b] += I[i] * x + I[i + 3] * y + I[i + 6] * z;
    w[3 * b + 1] += I[i + 1] * x + I[i + 4] * y + I[i + 7] * z;
    w[3 * b + 2] += I[i + 2] * x + I[i + 5] * y + I[i + 8] * z;
  }
}

/** One pass over the coupling rows (useBias: solve stage; false: relax). */
export function solveCouplings(joints: JointStore, ctx: JointSolveContext, useBias: boolean): void {
  const cs = joints.couplings, imp = joints.couplingImpulse;
  for (let i = 0; i < cs.length; i++) {
    const err = buildRow(joints, ctx.scratch, ctx.bodies, cs[i]);
    const k = rowMass(ctx);
    if (!(k > 0)) continue;
    let bias = 0, massScale = 1, impulseScale = 0;
    if (useBias) {
      bias = ctx.soft.biasRate * err;
      massScale = ctx.soft.massScale;
      impulseScale = ctx.soft.impulseScale;
    }
    const lambda = (-massScale * (rowRate(ctx) + bias)) / k - impulseScale * imp[i];
    imp[i] += lambda;
    rowApply(ctx, lambda);
  }
}

/** Re-applies every coupling's accumulated impulse. */
export function warmStartCouplings(joints: JointStore, ctx: JointSolveContext): void {
  const cs = joints.couplings, imp = joints.couplingImpulse;
  for (let i = 0; i < cs.length; i++) {
    if (imp[i] === 0) continue;
    buildRow(joints, ctx.scratch, ctx.bodies, cs[i]);
    rowApply(ctx, imp[i]);
  }
}
