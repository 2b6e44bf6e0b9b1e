/**
 * Revolute joint (hinge: wheel axles, steering): B turns about the axis relative to A.
 *
 * Rows, in order: the coordinate rows on the angle about the axis (spring, friction, motor,
 * limits: as rows.ts solveCoordinateRows, angular), the 2×2 angular lock perpendicular to the axis
 * (error a × b_B), the 3×3 point block. Warm start: the point impulse, and the angular impulse
 * from its two perpendicular coefficients (of p1, p2) plus the axial sum. Measure: the angle
 * and its rate about A's axis.
 *
 * Prepare vs solve (as Box2D v3 and Jolt split a constraint): prepareRevolute computes, once per
 * pose, the joint's frame — world arms and axes, the rows' effective masses and inverses, the
 * angle, the position errors — which the warm start and both solver passes of a substep read; the
 * passes then do only the velocity work, on locals. The arithmetic is the rows.ts helpers', value
 * for value (the same operations in the same order), so results are bit-identical to solving
 * each pass from the poses.
 */
import type { BodyStore } from '../bodies';
import type { JointScratch, JointSolveContext } from './rows';
import { angVel, revoluteAngle, rotateVec } from './rows';
import { springSoftness } from '../soft';
import type { JointDef, JointStore } from './store';
import { I_ANG, I_LIN, I_LOWER, I_MOTOR, I_SPRING, I_UPPER, JOINT_FRAME_STRIDE, JOINT_IMPULSE_STRIDE } from './store';

// Slots of a revolute joint's frame (JointStore.frames): world arms rA, rB, A's axis and the
// basis p1, p2 perpendicular to it (3 each); the coordinate row's K, its inverse m, the angle q
// (when a spring or limits need it) and the spring's softness; the angular lock's error projected
// on p1, p2, its 2×2 block k11, k12, k22, det and 1/det; the point block's inverse (9, column-major),
// whether it was invertible (1/0), and the anchors' separation B − A.
const F_RA = 0, F_RB = 3, F_AX = 6, F_P1 = 9, F_P2 = 12, F_KC = 15, F_M = 16, F_Q = 17;
const F_SBR = 18, F_SMS = 19, F_SIS = 20, F_E1 = 21, F_E2 = 22, F_K11 = 23, F_K12 = 24, F_K22 = 25;
const F_DET = 26, F_INV = 27, F_KINV = 28, F_POK = 37, F_SEP = 38;
/** The F_ slots by name (for the tests that check a frame against the rows.ts helpers). */
export const REVOLUTE_FRAME = {
  rA: F_RA, rB: F_RB, axis: F_AX, p1: F_P1, p2: F_P2, coordK: F_KC, coordM: F_M, angle: F_Q,
  springBiasRate: F_SBR, springMassScale: F_SMS, springImpulseScale: F_SIS, angErr1: F_E1, angErr2: F_E2,
  k11: F_K11, k12: F_K12, k22: F_K22, det: F_DET, invDet: F_INV, pointKinv: F_KINV, pointOk: F_POK, separation: F_SEP,
} as const;

/**
 * Revolute joint j's frame at the bodies' current poses (see the F_ slots): everything of its rows
 * that does not depend on the velocities, with the arithmetic of the rows.ts helpers (rotateVec,
 * perpBasis, angK, revoluteAngle, addPointBlock, invert3; soft.ts springSoftness) written out on
 * locals: each quaternion and inverse inertia is read once (the world inverse inertia is exactly
 * symmetric: six entries), and the point block's columns skip the products with the unit
 * vectors' zeros and ones (they change no entry of K: at most the sign of a zero term, which
 * vanishes in the sums).
 */
export function prepareRevolute(joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef): void {
  const bodies = ctx.bodies, rot = bodies.rot, I = bodies.invInertiaWorld, f = joints.frames, fo = JOINT_FRAME_STRIDE * j;
  const a = def.bodyA, b = def.bodyB;
  const mA = ctx.invMass[a], mB = ctx.invMass[b];
  const movesA = mA > 0, movesB = mB > 0;
  const qax = rot[4 * a], qay = rot[4 * a + 1], qaz = rot[4 * a + 2], qaw = rot[4 * a + 3];
  const qbx = rot[4 * b], qby = rot[4 * b + 1], qbz = rot[4 * b + 2], qbw = rot[4 * b + 3];
  // world arms, A's axis, the basis p1, p2 ⟂ it, B's axis (rotateVec, perpBasis)
  let x = def.anchorA[0], y = def.anchorA[1], z = def.anchorA[2];
  let tx = 2 * (qay * z - qaz * y), ty = 2 * (qaz * x - qax * z), tz = 2 * (qax * y - qay * x);
  const rA0 = x + qaw * tx + (qay * tz - qaz * ty), rA1 = y + qaw * ty + (qaz * tx - qax * tz), rA2 = z + qaw * tz + (qax * ty - qay * tx);
  x = def.anchorB[0]; y = def.anchorB[1]; z = def.anchorB[2];
  tx = 2 * (qby * z - qbz * y); ty = 2 * (qbz * x - qbx * z); tz = 2 * (qbx * y - qby * x);
  const rB0 = x + qbw * tx + (qby * tz - qbz * ty), rB1 = y + qbw * ty + (qbz * tx - qbx * tz), rB2 = z + qbw * tz + (qbx * ty - qby * tx);
  x = def.axisA[0]; y = def.axisA[1]; z = def.axisA[2];
  tx = 2 * (qay * z - qaz * y); ty = 2 * (qaz * x - qax * z); tz = 2 * (qax * y - qay * x);
  const ax0 = x + qaw * tx + (qay * tz - qaz * ty), ax1 = y + qaw * ty + (qaz * tx - qax * tz), ax2 = z + qaw * tz + (qax * ty - qay * tx);
  x = def.perpA[0]; y = def.perpA[1]; z = def.perpA[2];
  tx = 2 * (qay * z - qaz * y); ty = 2 * (qaz * x - qax * z); tz = 2 * (qax * y - qay * x);
  const p10 = x + qaw * tx + (qay * tz - qaz * ty), p11 = y + qaw * ty + (qaz * tx - qax * tz), p12 = z + qaw * tz + (qax * ty - qay * tx);
  const p20 = ax1 * p12 - ax2 * p11, p21 = ax2 * p10 - ax0 * p12, p22 = ax0 * p11 - ax1 * p10;
  x = def.axisB[0]; y = def.axisB[1]; z = def.axisB[2];
  tx = 2 * (qby * z - qbz * y); ty = 2 * (qbz * x - qbx * z); tz = 2 * (qbx * y - qby * x);
  const bx0 = x + qbw * tx + (qby * tz - qbz * ty), bx1 = y + qbw * ty + (qbz * tx - qbx * tz), bx2 = z + qbw * tz + (qbx * ty - qby * tx);
  f[fo + F_RA] = rA0; f[fo + F_RA + 1] = rA1; f[fo + F_RA + 2] = rA2;
  f[fo + F_RB] = rB0; f[fo + F_RB + 1] = rB1; f[fo + F_RB + 2] = rB2;
  f[fo + F_AX] = ax0; f[fo + F_AX + 1] = ax1; f[fo + F_AX + 2] = ax2;
  f[fo + F_P1] = p10; f[fo + F_P1 + 1] = p11; f[fo + F_P1 + 2] = p12;
  f[fo + F_P2] = p20; f[fo + F_P2 + 1] = p21; f[fo + F_P2 + 2] = p22;
  // the two inverse inertias (symmetric)
  let a00 = 0, a01 = 0, a02 = 0, a11 = 0, a12 = 0, a22 = 0;
  if (movesA) {
    const k = 9 * a;
    a00 = I[k]; a01 = I[k + 1]; a02 = I[k + 2]; a11 = I[k + 4]; a12 = I[k + 5]; a22 = I[k + 8];
  }
  let b00 = 0, b01 = 0, b02 = 0, b11 = 0, b12 = 0, b22 = 0;
  if (movesB) {
    const k = 9 * b;
    b00 = I[k]; b01 = I[k + 1]; b02 = I[k + 2]; b11 = I[k + 4]; b12 = I[k + 5]; b22 = I[k + 8];
  }
  // the coordinate row's K (angK on the axis), its angle (revoluteAngle) and spring
  let ka = 0, kb = 0;
  if (movesA) ka = ax0 * (a00 * ax0 + a01 * ax1 + a02 * ax2) + ax1 * (a01 * ax0 + a11 * ax1 + a12 * ax2) + ax2 * (a02 * ax0 + a12 * ax1 + a22 * ax2);
  if (movesB) kb = ax0 * (b00 * ax0 + b01 * ax1 + b02 * ax2) + ax1 * (b01 * ax0 + b11 * ax1 + b12 * ax2) + ax2 * (b02 * ax0 + b12 * ax1 + b22 * ax2);
  const kc = ka + kb;
  f[fo + F_KC] = kc;
  if (kc > 0) {
    if (def.stiffness > 0 || def.limits !== null) {
      // m = q_A⁻¹ · q_B, e = m · q0⁻¹ (rotation in A's frame)
      const ax0q = -qax, ay0q = -qay, az0q = -qaz;
      const mx = qaw * qbx + ax0q * qbw + ay0q * qbz - az0q * qby;
      const my = qaw * qby - ax0q * qbz + ay0q * qbw + az0q * qbx;
      const mz = qaw * qbz + ax0q * qby - ay0q * qbx + az0q * qbw;
      const mw = qaw * qbw - ax0q * qbx - ay0q * qby - az0q * qbz;
      const q0 = def.q0;
      const cx = -q0[0], cy = -q0[1], cz = -q0[2], cw = q0[3];
      const ex = mw * cx + mx * cw + my * cz - mz * cy;
      const ey = mw * cy - mx * cz + my * cw + mz * cx;
      const ez = mw * cz + mx * cy - my * cx + mz * cw;
      const ew = mw * cw - mx * cx - my * cy - mz * cz;
      const sn = ex * def.axisA[0] + ey * def.axisA[1] + ez * def.axisA[2];
      let angle = 2 * Math.atan2(sn, ew);
      if (angle > Math.PI) angle -= 2 * Math.PI;
      else if (angle <= -Math.PI) angle += 2 * Math.PI;
      f[fo + F_Q] = angle;
    }
    const m = 1 / kc;
    f[fo + F_M] = m;
    if (def.stiffness > 0 || def.damping > 0) {
      const sp = ctx.scratch.spring;
      springSoftness(sp, def.stiffness, def.damping, m, ctx.h);
      f[fo + F_SBR] = sp.biasRate; f[fo + F_SMS] = sp.massScale; f[fo + F_SIS] = sp.impulseScale;
    }
  }
  // the angular lock: error φ⊥ = a × b (A's axis onto B's, the small rotation taking one to the
  // other), K = I_A + I_B restricted to the basis p1, p2: k_uv = u·K·v
  const ex = ax1 * bx2 - ax2 * bx1, ey = ax2 * bx0 - ax0 * bx2, ez = ax0 * bx1 - ax1 * bx0;
  f[fo + F_E1] = ex * p10 + ey * p11 + ez * p12;
  f[fo + F_E2] = ex * p20 + ey * p21 + ez * p22;
  let s00 = 0, s01 = 0, s02 = 0, s11 = 0, s12 = 0, s22 = 0;
  if (movesA) { s00 += a00; s01 += a01; s02 += a02; s11 += a11; s12 += a12; s22 += a22; }
  if (movesB) { s00 += b00; s01 += b01; s02 += b02; s11 += b11; s12 += b12; s22 += b22; }
  let kx = s00 * p10 + s01 * p11 + s02 * p12, ky = s01 * p10 + s11 * p11 + s12 * p12, kz = s02 * p10 + s12 * p11 + s22 * p12;
  const k11 = p10 * kx + p11 * ky + p12 * kz;
  kx = s00 * p20 + s01 * p21 + s02 * p22; ky = s01 * p20 + s11 * p21 + s12 * p22; kz = s02 * p20 + s12 * p21 + s22 * p22;
  const k12 = p10 * kx + p11 * ky + p12 * kz;
  const k22 = p20 * kx + p21 * ky + p22 * kz;
  const det = k11 * k22 - k12 * k12;
  f[fo + F_K11] = k11; f[fo + F_K12] = k12; f[fo + F_K22] = k22; f[fo + F_DET] = det;
  if (det > 1e-300) f[fo + F_INV] = 1 / det;
  // the point block (solvePoint): K = (mA + mB)·1 + the blocks −[r]×·I·[r]× (addPointBlock),
  // column k = (I (r × e_k)) × r; then its inverse (invert3)
  const d = mA + mB;
  let K0 = d, K1 = 0, K2 = 0, K3 = 0, K4 = d, K5 = 0, K6 = 0, K7 = 0, K8 = d;
  for (let body = 0; body < 2; body++) {
    let r0 = 0, r1 = 0, r2 = 0, i00 = 0, i01 = 0, i02 = 0, i11 = 0, i12 = 0, i22 = 0;
    if (body === 0) {
      if (!movesA) continue;
      r0 = rA0; r1 = rA1; r2 = rA2; i00 = a00; i01 = a01; i02 = a02; i11 = a11; i12 = a12; i22 = a22;
    } else {
      if (!movesB) continue;
      r0 = rB0; r1 = rB1; r2 = rB2; i00 = b00; i01 = b01; i02 = b02; i11 = b11; i12 = b12; i22 = b22;
    }
    // e_0: r × e_0 = (0, r2, −r1)
    let cy = r2, cz = -r1, cx = 0;
    let ix = i01 * cy + i02 * cz, iy = i11 * cy + i12 * cz, iz = i12 * cy + i22 * cz;
    K0 += iy * r2 - iz * r1; K1 += iz * r0 - ix * r2; K2 += ix * r1 - iy * r0;
    // e_1: (−r2, 0, r0)
    cx = -r2; cz = r0;
    ix = i00 * cx + i02 * cz; iy = i01 * cx + i12 * cz; iz = i02 * cx + i22 * cz;
    K3 += iy * r2 - iz * r1; K4 += iz * r0 - ix * r2; K5 += ix * r1 - iy * r0;
    // e_2: (r1, −r0, 0)
    cx = r1; cy = -r0;
    ix = i00 * cx + i01 * cy; iy = i01 * cx + i11 * cy; iz = i02 * cx + i12 * cy;
    K6 += iy * r2 - iz * r1; K7 += iz * r0 - ix * r2; K8 += ix * r1 - iy * r0;
  }
  {
    // invert3 (column-major m[0..8] = K0..K8)
    const ma = K0, mb = K3, mc = K6, md = K1, me = K4, mf = K7, mg = K2, mh = K5, mi = K8;
    const A = me * mi - mf * mh, B = -(md * mi - mf * mg), C = md * mh - me * mg;
    const dt = ma * A + mb * B + mc * C;
    const ok = Math.abs(dt) > 1e-300;
    f[fo + F_POK] = ok ? 1 : 0;
    if (ok) {
      const inv = 1 / dt, k = fo + F_KINV;
      f[k] = A * inv; f[k + 1] = B * inv; f[k + 2] = C * inv;
      f[k + 3] = -(mb * mi - mc * mh) * inv; f[k + 4] = (ma * mi - mc * mg) * inv; f[k + 5] = -(ma * mh - mb * mg) * inv;
      f[k + 6] = (mb * mf - mc * me) * inv; f[k + 7] = -(ma * mf - mc * md) * inv; f[k + 8] = (ma * me - mb * md) * inv;
    }
  }
  const pos = bodies.pos;
  f[fo + F_SEP] = pos[3 * b] + rB0 - pos[3 * a] - rA0;
  f[fo + F_SEP + 1] = pos[3 * b + 1] + rB1 - pos[3 * a + 1] - rA1;
  f[fo + F_SEP + 2] = pos[3 * b + 2] + rB2 - pos[3 * a + 2] - rA2;
}

/**
 * One pass of revolute joint j's rows (useBias: solve stage; false: relax), from its frame
 * (prepareRevolute at the current poses). The two bodies' velocities and world inverse inertias
 * (symmetric: six entries) are held in locals over all the rows and written back at the end.
 */
export function solveRevolute(joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef, useBias: boolean): void {
  const bodies = ctx.bodies, v = bodies.linVel, w = bodies.angVel, I = bodies.invInertiaWorld;
  const imp = joints.impulses, o = JOINT_IMPULSE_STRIDE * j, f = joints.frames, fo = JOINT_FRAME_STRIDE * j;
  const a = def.bodyA, b = def.bodyB;
  const mA = ctx.invMass[a], mB = ctx.invMass[b];
  const movesA = mA > 0, movesB = mB > 0;
  let a00 = 0, a01 = 0, a02 = 0, a11 = 0, a12 = 0, a22 = 0;
  if (movesA) {
    const k = 9 * a;
    a00 = I[k]; a01 = I[k + 1]; a02 = I[k + 2]; a11 = I[k + 4]; a12 = I[k + 5]; a22 = I[k + 8];
  }
  let b00 = 0, b01 = 0, b02 = 0, b11 = 0, b12 = 0, b22 = 0;
  if (movesB) {
    const k = 9 * b;
    b00 = I[k]; b01 = I[k + 1]; b02 = I[k + 2]; b11 = I[k + 4]; b12 = I[k + 5]; b22 = I[k + 8];
  }
  let vax = v[3 * a], vay = v[3 * a + 1], vaz = v[3 * a + 2], wax = w[3 * a], way = w[3 * a + 1], waz = w[3 * a + 2];
  let vbx = v[3 * b], vby = v[3 * b + 1], vbz = v[3 * b + 2], wbx = w[3 * b], wby = w[3 * b + 1], wbz = w[3 * b + 2];
  // the coordinate rows (rows.ts solveCoordinateRows, angular): each applies l·axis
  const kc = f[fo + F_KC];
  if (kc > 0) {
    const ax0 = f[fo + F_AX], ax1 = f[fo + F_AX + 1], ax2 = f[fo + F_AX + 2];
    const q = def.stiffness > 0 || def.limits !== null ? f[fo + F_Q] : 0;
    const m = f[fo + F_M];
    for (let row = 0; row < 5; row++) {
      let l = 0;
      if (row === 0) {
        // spring–damper toward restPosition (physical: acts in both stages)
        if (!(def.stiffness > 0 || def.damping > 0)) continue;
        const c = def.stiffness > 0 ? q - def.restPosition : 0;
        const rate = (wbx - wax) * ax0 + (wby - way) * ax1 + (wbz - waz) * ax2;
        l = -m * f[fo + F_SMS] * (rate + f[fo + F_SBR] * c) - f[fo + F_SIS] * imp[o + I_SPRING];
        imp[o + I_SPRING] += l;
      } else if (row === 1) {
        // joint friction (see solveCoordinateRows)
        if (!(def.friction > 0)) continue;
        const rate = (wbx - wax) * ax0 + (wby - way) * ax1 + (wbz - waz) * ax2;
        const lim = def.friction * ctx.h;
        const old = joints.frictionImpulse[j];
        const total = Math.max(-lim, Math.min(lim, old - m * rate));
        joints.frictionImpulse[j] = total;
        l = total - old;
      } else if (row === 2) {
        if (!def.motor) continue;
        const old = imp[o + I_MOTOR];
        const maxL = def.maxMotorEffort * ctx.h;
        const rate = (wbx - wax) * ax0 + (wby - way) * ax1 + (wbz - waz) * ax2;
        const total = Math.max(-maxL, Math.min(maxL, old + -m * (rate - joints.motorTarget[j])));
        imp[o + I_MOTOR] = total;
        l = total - old;
      } else {
        const limits = def.limits;
        if (limits === null) break;
        // lower (row 3): q − lo ≥ 0; upper (row 4): hi − q ≥ 0 (impulse acts negatively on q)
        const lower = row === 3;
        const c = lower ? q - limits[0] : limits[1] - q;
        let bias = 0, massScale = 1, impulseScale = 0;
        if (c > 0) bias = c * ctx.invH;
        else if (useBias) {
          bias = ctx.soft.biasRate * c;
          massScale = ctx.soft.massScale;
          impulseScale = ctx.soft.impulseScale;
        }
        const slot = o + (lower ? I_LOWER : I_UPPER);
        const old = imp[slot];
        const rate = (wbx - wax) * ax0 + (wby - way) * ax1 + (wbz - waz) * ax2;
        const lr = -m * massScale * ((lower ? rate : -rate) + bias) - impulseScale * old;
        const total = Math.max(0, old + lr);
        imp[slot] = total;
        l = lower ? total - old : -(total - old);
      }
      // apply l on the coordinate: angular impulse l·axis, +B −A
      const Lx = l * ax0, Ly = l * ax1, Lz = l * ax2;
      if (movesA) {
        const lx = -Lx, ly = -Ly, lz = -Lz;
        wax += a00 * lx + a01 * ly + a02 * lz;
        way += a01 * lx + a11 * ly + a12 * lz;
        waz += a02 * lx + a12 * ly + a22 * lz;
      }
      if (movesB) {
        wbx += b00 * Lx + b01 * Ly + b02 * Lz;
        wby += b01 * Lx + b11 * Ly + b12 * Lz;
        wbz += b02 * Lx + b12 * Ly + b22 * Lz;
      }
    }
  }
  let massScale = 1, impulseScale = 0, biasRate = 0;
  if (useBias) {
    massScale = ctx.soft.massScale;
    impulseScale = ctx.soft.impulseScale;
    biasRate = ctx.soft.biasRate;
  }
  // the angular lock ⟂ the axis: the 2×2 block in the basis p1, p2
  if (f[fo + F_DET] > 1e-300) {
    const p10 = f[fo + F_P1], p11 = f[fo + F_P1 + 1], p12 = f[fo + F_P1 + 2];
    const p20 = f[fo + F_P2], p21 = f[fo + F_P2 + 1], p22 = f[fo + F_P2 + 2];
    const k11 = f[fo + F_K11], k12 = f[fo + F_K12], k22 = f[fo + F_K22], inv = f[fo + F_INV];
    const rx = wbx - wax, ry = wby - way, rz = wbz - waz;
    const u1 = rx * p10 + ry * p11 + rz * p12 + biasRate * f[fo + F_E1];
    const u2 = rx * p20 + ry * p21 + rz * p22 + biasRate * f[fo + F_E2];
    const oa = o + I_ANG;
    const l1 = -massScale * inv * (k22 * u1 - k12 * u2) - impulseScale * imp[oa];
    const l2 = -massScale * inv * (k11 * u2 - k12 * u1) - impulseScale * imp[oa + 1];
    imp[oa] += l1;
    imp[oa + 1] += l2;
    const Lx = l1 * p10 + l2 * p20, Ly = l1 * p11 + l2 * p21, Lz = l1 * p12 + l2 * p22;
    if (movesA) {
      const lx = -Lx, ly = -Ly, lz = -Lz;
      wax += a00 * lx + a01 * ly + a02 * lz;
      way += a01 * lx + a11 * ly + a12 * lz;
      waz += a02 * lx + a12 * ly + a22 * lz;
    }
    if (movesB) {
      wbx += b00 * Lx + b01 * Ly + b02 * Lz;
      wby += b01 * Lx + b11 * Ly + b12 * Lz;
      wbz += b02 * Lx + b12 * Ly + b22 * Lz;
    }
  }
  // the point block (rows.ts solvePoint)
  if (f[fo + F_POK] !== 0) {
    const rA0 = f[fo + F_RA], rA1 = f[fo + F_RA + 1], rA2 = f[fo + F_RA + 2];
    const rB0 = f[fo + F_RB], rB1 = f[fo + F_RB + 1], rB2 = f[fo + F_RB + 2];
    const cdx = vbx + wby * rB2 - wbz * rB1 - (vax + way * rA2 - waz * rA1);
    const cdy = vby + wbz * rB0 - wbx * rB2 - (vay + waz * rA0 - wax * rA2);
    const cdz = vbz + wbx * rB1 - wby * rB0 - (vaz + wax * rA1 - way * rA0);
    let bx0 = 0, by0 = 0, bz0 = 0;
    if (useBias) {
      bx0 = biasRate * f[fo + F_SEP];
      by0 = biasRate * f[fo + F_SEP + 1];
      bz0 = biasRate * f[fo + F_SEP + 2];
    }
    const ux = cdx + bx0, uy = cdy + by0, uz = cdz + bz0;
    const k = fo + F_KINV, ol = o + I_LIN;
    const px = -massScale * (f[k] * ux + f[k + 3] * uy + f[k + 6] * uz) - impulseScale * imp[ol];
    const py = -massScale * (f[k + 1] * ux + f[k + 4] * uy + f[k + 7] * uz) - impulseScale * imp[ol + 1];
    const pz = -massScale * (f[k + 2] * ux + f[k + 5] * uy + f[k + 8] * uz) - impulseScale * imp[ol + 2];
    imp[ol] += px; imp[ol + 1] += py; imp[ol + 2] += pz;
    if (movesA) {
      vax -= mA * px; vay -= mA * py; vaz -= mA * pz;
      const lx = -(rA1 * pz - rA2 * py), ly = -(rA2 * px - rA0 * pz), lz = -(rA0 * py - rA1 * px);
      wax += a00 * lx + a01 * ly + a02 * lz;
      way += a01 * lx + a11 * ly + a12 * lz;
      waz += a02 * lx + a12 * ly + a22 * lz;
    }
    if (movesB) {
      vbx += mB * px; vby += mB * py; vbz += mB * pz;
      const lx = rB1 * pz - rB2 * py, ly = rB2 * px - rB0 * pz, lz = rB0 * py - rB1 * px;
      wbx += b00 * lx + b01 * ly + b02 * lz;
      wby += b01 * lx + b11 * ly + b12 * lz;
      wbz += b02 * lx + b12 * ly + b22 * lz;
    }
  }
  if (movesA) {
    v[3 * a] = vax; v[3 * a + 1] = vay; v[3 * a + 2] = vaz;
    w[3 * a] = wax; w[3 * a + 1] = way; w[3 * a + 2] = waz;
  }
  if (movesB) {
    v[3 * b] = vbx; v[3 * b + 1] = vby; v[3 * b + 2] = vbz;
    w[3 * b] = wbx; w[3 * b + 1] = wby; w[3 * b + 2] = wbz;
  }
}

/**
 * Re-applies revolute joint j's accumulated impulses at its frame (prepareRevolute): the point
 * impulse at the arms and the angular one (rows.ts applyWarmStart's arithmetic, on locals; zero
 * impulses skipped).
 */
export function warmStartRevolute(joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef): void {
  const bodies = ctx.bodies, v = bodies.linVel, w = bodies.angVel, I = bodies.invInertiaWorld;
  const imp = joints.impulses, o = JOINT_IMPULSE_STRIDE * j, f = joints.frames, fo = JOINT_FRAME_STRIDE * j;
  const a = def.bodyA, b = def.bodyB;
  const mA = ctx.invMass[a], mB = ctx.invMass[b];
  const axial = imp[o + I_MOTOR] + imp[o + I_LOWER] - imp[o + I_UPPER] + imp[o + I_SPRING];
  // the 2 perpendicular angular impulses are stored as coefficients of p1, p2
  const l1 = imp[o + I_ANG], l2 = imp[o + I_ANG + 1];
  const px = imp[o + I_LIN], py = imp[o + I_LIN + 1], pz = imp[o + I_LIN + 2];
  const Lx = l1 * f[fo + F_P1] + l2 * f[fo + F_P2] + axial * f[fo + F_AX];
  const Ly = l1 * f[fo + F_P1 + 1] + l2 * f[fo + F_P2 + 1] + axial * f[fo + F_AX + 1];
  const Lz = l1 * f[fo + F_P1 + 2] + l2 * f[fo + F_P2 + 2] + axial * f[fo + F_AX + 2];
  const lin = px !== 0 || py !== 0 || pz !== 0, ang = Lx !== 0 || Ly !== 0 || Lz !== 0;
  if (!lin && !ang) return;
  // each body: its velocities and inverse inertia (symmetric) in locals, the linear impulse at its
  // arm first, then the angular one (rows.ts applyLin, applyAng)
  for (let side = 0; side < 2; side++) {
    const body = side === 0 ? a : b, m = side === 0 ? mA : mB;
    if (!(m > 0)) continue;
    const k = 9 * body, i00 = I[k], i01 = I[k + 1], i02 = I[k + 2], i11 = I[k + 4], i12 = I[k + 5], i22 = I[k + 8];
    let wx = w[3 * body], wy = w[3 * body + 1], wz = w[3 * body + 2];
    if (lin) {
      const r = side === 0 ? fo + F_RA : fo + F_RB, r0 = f[r], r1 = f[r + 1], r2 = f[r + 2];
      let lx = 0, ly = 0, lz = 0;
      if (side === 0) {
        v[3 * body] -= m * px; v[3 * body + 1] -= m * py; v[3 * body + 2] -= m * pz;
        lx = -(r1 * pz - r2 * py); ly = -(r2 * px - r0 * pz); lz = -(r0 * py - r1 * px);
      } else {
        v[3 * body] += m * px; v[3 * body + 1] += m * py; v[3 * body + 2] += m * pz;
        lx = r1 * pz - r2 * py; ly = r2 * px - r0 * pz; lz = r0 * py - r1 * px;
      }
      wx += i00 * lx + i01 * ly + i02 * lz;
      wy += i01 * lx + i11 * ly + i12 * lz;
      wz += i02 * lx + i12 * ly + i22 * lz;
    }
    if (ang) {
      const lx = side === 0 ? -Lx : Lx, ly = side === 0 ? -Ly : Ly, lz = side === 0 ? -Lz : Lz;
      wx += i00 * lx + i01 * ly + i02 * lz;
      wy += i01 * lx + i11 * ly + i12 * lz;
      wz += i02 * lx + i12 * ly + i22 * lz;
    }
    w[3 * body] = wx; w[3 * body + 1] = wy; w[3 * body + 2] = wz;
  }
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
