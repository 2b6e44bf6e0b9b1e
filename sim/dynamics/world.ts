/**
 * The rigid-body world: a fixed step, run as Box2D v3's soft step
 *
 *   drive → collide (once per step) → prepare contacts and joints →
 *   substeps × [integrate velocities → warm start → solve (bias) → integrate positions → relax]
 *   → restitution → store impulses (this step's contacts become next step's warm-start cache)
 *   → sleep → fault check.
 *
 * Why this shape: the collision pass is the expensive part (the analytic wheel query, GJK/EPA),
 * so it runs once per step, and the cheap solver runs several substeps with the separation of
 * each contact tracked from its anchors; soft constraints with substeps handle the 40 kg chassis
 * on 2 kg wheels without the many iterations rigid Gauss–Seidel would need.
 *
 * State. Everything that affects the future lives in typed arrays (bodies, joint impulses and
 * motor targets, last step's contacts and impulses, sleep timers) plus a few numbers (step,
 * drive, script cursor); saveState() copies them into one Float64Array, restoreState() copies
 * them back, stateHash() hashes that copy. The broad phase is not state: its pair set, sorted
 * by body indices, is the same whatever its tree looks like (every pair within the speculative
 * distance overlaps in fattened boxes).
 *
 * Built from a WorldSpec by build.ts (createDynamicsWorld).
 */
import type { BodyStore } from './bodies';
import { BodyKind } from './bodies';
import { CollisionPass } from './collide';
import { ContactStore, applyRestitution, prepareContacts, solveContacts, warmStartContacts } from './contacts';
import {
  CONTACT_DAMPING_RATIO,
  CONTACT_HERTZ,
  FAULT_MAX_ANGULAR_SPEED,
  FAULT_MAX_COORDINATE,
  FAULT_MAX_DEPTH,
  FAULT_MAX_SPEED,
  JOINT_DAMPING_RATIO,
  JOINT_HERTZ,
  MAX_ROTATION_PER_SUBSTEP,
  SLEEP_DRIFT,
  SLEEP_SPEED,
  TIME_TO_SLEEP,
} from './constants';
import type { DriveController } from './drive';
import type { ContinuousPass } from './ccd';
import type { JointSolveContext, JointStore } from './joints';
import { JOINT_IMPULSE_STRIDE, JointScratch, measureJoints, solveJoints, warmStartJoints } from './joints';
import type { MaterialTable } from './materials';
import { Softness } from './soft';
import type { ScriptCommandSpec, WorldSpec } from './spec';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from './frame-layout';
import { ReportArrays, writeBodyReport, writeContactReport } from './report';
import type { Heightfield } from '../terrain/heightfield';
import type { Vec3 } from '../math/vec3';

/**
 * Why the world stopped: a body went non-finite or past a named limit (`limit`: the world is back
 * at the step's start), or a robot body's origin left the terrain's x, y extent (`left-terrain`:
 * the step stands; beyond the grid there is no ground, so the robot would only fall).
 */
export interface WorldFault {
  kind: 'limit' | 'left-terrain';
  step: number;
  body: string;
  reason: string;
  /** [m] left-terrain: the body origin's x, y after the step that left the terrain. */
  x?: number;
  y?: number;
}

/** Time spent in each stage over `steps` steps [ms], for the benchmark's split (timeStages). */
export interface StepTimings {
  /** Broad plus narrow phase (the collision pass). */
  collide: number;
  /** Body AABBs, broad-phase pair update and pair sort. */
  broad: number;
  /** Narrow phase per pair and contact emission with warm-start matching. */
  narrow: number;
  /** Contact and joint preparation, warm start, solve, relax, restitution. */
  solve: number;
  /** Velocity and position integration in the substeps. */
  integrate: number;
  /** After the substeps: joint measures, sleep, fault check. */
  finish: number;
  steps: number;
}

export const WORLD_STATE_MAGIC = 0x54575331; // "TWS1"
const HEADER = 12;
const BODY_STATE = 3 + 4 + 3 + 3 + 3 + 7; // pos rot linVel angVel | sleepTime awake island | sleep anchor (pos, rot)
const CONTACT_STATE = 1 + 3 + 3 + 5 + 8; // key point normal impulses(5) kind cellI cellJ feature depth friction restitution rolling

/**
 * The rigid-body world (engine form): fixed steps of the soft-step solver, contacts, joints,
 * sleeping, continuous collision, faults, and save/restore/hash of the full state. Built by
 * `createDynamicsWorld`.
 */
export class DynamicsWorld {
  readonly spec: WorldSpec;
  readonly terrain: Heightfield | null;
  readonly bodies: BodyStore;
  readonly joints: JointStore;
  readonly materials: MaterialTable;
  readonly dt: number;
  readonly substeps: number;
  readonly gravity: Vec3;
  readonly controller: DriveController | null;
  /** Time-of-impact clamping for fast bodies (null: off). */
  readonly ccd: ContinuousPass | null;
  /** This step's contacts (after step(): the contacts the step solved, with their impulses). */
  contacts: ContactStore;
  /** The previous step's contacts (warm-start cache); swapped with `contacts` every step. */
  private cache: ContactStore;
  private readonly pass: CollisionPass;
  stepCount = 0;
  fault: WorldFault | null = null;
  /** Island representative of each sleeping body (−1 when awake or static). */
  readonly island: Int32Array;
  /** Per body slot: inverse mass the solver may use this step (0: static, kinematic, asleep). */
  private readonly solverMass: Float64Array;
  private readonly contactSoft = new Softness();
  private readonly jointSoft = new Softness();
  private readonly jointCtx: JointSolveContext;
  private readonly wakeFn: (b: number) => void;
  private readonly parent: Int32Array;
  private readonly minSleep: Float64Array;
  private readonly backup: Float64Array;
  /**
   * The state is the one the last step left (false after building or restoreState: then the
   * next step's change certificate does not hold, see lastStepChanges).
   */
  private stepped = false;
  /** The step the last step started from, when its change certificate holds; else −1. */
  private certifiedFrom = -1;
  /** Body indices of the robot's bodies (checked against the terrain's extent after each step). */
  private readonly robotBodies: Int32Array;
  // drive and script
  drive = { throttle: 0, steer: 0 };
  scriptCursor = 0;
  scriptOverridden = false;
  readonly script: readonly ScriptCommandSpec[];
  readonly timings: StepTimings = { collide: 0, broad: 0, narrow: 0, solve: 0, integrate: 0, finish: 0, steps: 0 };
  /** Measure the stage split (performance.now per stage; off by default). */
  timeStages = false;
  // report buffers (frame())
  private readonly report = new ReportArrays();

  constructor(
    spec: WorldSpec, terrain: Heightfield | null, bodies: BodyStore, joints: JointStore, materials: MaterialTable,
    controller: DriveController | null, ccd: ContinuousPass | null = null,
  ) {
    this.ccd = ccd;
    this.spec = spec;
    this.terrain = terrain;
    this.bodies = bodies;
    this.joints = joints;
    this.materials = materials;
    this.controller = controller;
    this.dt = spec.dt;
    this.substeps = spec.substeps;
    this.gravity = [spec.gravity[0], spec.gravity[1], spec.gravity[2]];
    this.script = spec.script;
    const n = bodies.count;
    this.contacts = new ContactStore(Math.max(64, n * 8));
    this.cache = new ContactStore(Math.max(64, n * 8));
    this.pass = new CollisionPass(bodies);
    this.island = new Int32Array(n).fill(-1);
    this.solverMass = new Float64Array(n + 1);
    this.parent = new Int32Array(n);
    this.minSleep = new Float64Array(n);
    this.backup = new Float64Array(n * 13);
    this.robotBodies = Int32Array.from(spec.robot?.bodies ?? [], (b) => bodies.indexOf(b.name));
    const h = this.dt / this.substeps;
    this.contactSoft.setHertz(Math.min(CONTACT_HERTZ, 0.25 / h), CONTACT_DAMPING_RATIO, h);
    this.jointSoft.setHertz(Math.min(JOINT_HERTZ, 0.25 / h), JOINT_DAMPING_RATIO, h);
    this.jointCtx = { bodies, invMass: this.solverMass, soft: this.jointSoft, h, invH: 1 / h, scratch: new JointScratch() };
    this.wakeFn = (b: number) => this.wakeBody(b);
    for (let b = 0; b < n; b++) {
      bodies.updateInertia(b);
      this.resetSleepAnchor(b);
    }
    measureJoints(joints, bodies, this.jointCtx.scratch);
  }

  /** The body's sleep anchor becomes its current pose. */
  private resetSleepAnchor(b: number): void {
    const bodies = this.bodies;
    for (let k = 0; k < 3; k++) bodies.sleepPos[3 * b + k] = bodies.pos[3 * b + k];
    for (let k = 0; k < 4; k++) bodies.sleepRot[4 * b + k] = bodies.rot[4 * b + k];
  }

  get time(): number {
    return this.stepCount * this.dt;
  }

  /** True once a user command has taken over from the script (or the script has ended). */
  get scriptActive(): boolean {
    return !this.scriptOverridden && this.scriptCursor < this.script.length;
  }

  /**
   * Drive command in [−1, 1] (non-finite → 0). A user command (the default) takes over from the
   * scenario's script for the rest of the run.
   */
  setDrive(throttle: number, steer: number, source: 'user' | 'script' = 'user'): void {
    const clamp = (v: number) => (Number.isFinite(v) ? Math.max(-1, Math.min(1, v)) : 0);
    this.drive.throttle = clamp(throttle);
    this.drive.steer = clamp(steer);
    if (source === 'user') this.scriptOverridden = true;
    if (this.controller) for (const j of this.controller.joints) this.wakeJoint(j);
  }

  /** Sets a joint's motor target velocity [rad/s] or [m/s]; throws for an unknown joint or a joint without a motor. */
  setMotor(jointName: string, targetVelocity: number): void {
    const j = this.joints.defs.findIndex((d) => d.name === jointName);
    if (j < 0) throw new Error(`setMotor: no joint named "${jointName}"`);
    if (!this.joints.defs[j].motor) throw new Error(`setMotor: joint "${jointName}" has no motor`);
    if (!Number.isFinite(targetVelocity)) throw new Error(`setMotor: targetVelocity must be finite, got ${String(targetVelocity)}`);
    this.joints.motorTarget[j] = targetVelocity;
    this.wakeJoint(j);
  }

  private wakeJoint(j: number): void {
    const d = this.joints.defs[j];
    this.wakeBody(d.bodyA);
    this.wakeBody(d.bodyB);
  }

  /** Wakes body b and every body of its island. */
  wakeBody(b: number): void {
    const bodies = this.bodies;
    if (b >= bodies.count || bodies.kind[b] !== BodyKind.Dynamic || bodies.awake[b]) return;
    const rep = this.island[b];
    for (let k = 0; k < bodies.count; k++) {
      if (this.island[k] === rep && !bodies.awake[k]) {
        bodies.awake[k] = 1;
        bodies.sleepTime[k] = 0;
        this.resetSleepAnchor(k);
        this.island[k] = -1;
      }
    }
  }

  /** Advances n fixed steps (stops early, and does nothing, once a fault is set). */
  step(n = 1): void {
    for (let k = 0; k < n && this.fault === null; k++) this.stepOnce();
  }

  private stepOnce(): void {
    const bodies = this.bodies, count = bodies.count;
    const from = this.stepped ? this.stepCount : -1;
    this.applyScript();
    this.controller?.update(this.drive, this.dt, this.joints, this.bodies);
    // keep a copy of the motion state: a fault restores it, so the world never holds NaN
    this.backupMotion();

    const t0 = this.timeStages ? performance.now() : 0;
    // collide: this step's contacts, warm-started from the cache
    const swap = this.cache;
    this.cache = this.contacts;
    this.contacts = swap;
    this.pass.timeStages = this.timeStages;
    this.pass.run(bodies, this.joints, this.materials, this.terrain, this.dt, this.cache, this.contacts, this.wakeFn);
    const overflow = this.pass.overflow;
    if (overflow !== null) {
      // too many overlapping pairs to collide: pause before this step (nothing moved yet)
      const step = this.stepCount + 1;
      this.fault = { kind: 'limit', step, body: bodies.names[overflow.body], reason: `${overflow.reason.replace('STEP', String(step))}; the world is paused at step ${this.stepCount}` };
      this.stepped = false;
      return;
    }
    const t1 = this.timeStages ? performance.now() : 0;

    // solver masses: 0 for anything the solver must not move this step
    const sm = this.solverMass;
    for (let b = 0; b < count; b++) sm[b] = bodies.kind[b] === BodyKind.Dynamic && bodies.awake[b] ? bodies.invMass[b] : 0;
    sm[count] = 0;
    // (plain loops: no subarray view per step)
    const pos = bodies.pos, rot = bodies.rot, pos0 = bodies.pos0, rot0 = bodies.rot0;
    for (let k = 0; k < 3 * count; k++) pos0[k] = pos[k];
    for (let k = 0; k < 4 * count; k++) rot0[k] = rot[k];
    const c = this.contacts;
    prepareContacts(c, bodies, sm);

    const h = this.dt / this.substeps;
    const gx = this.gravity[0] * h, gy = this.gravity[1] * h, gz = this.gravity[2] * h;
    const timed = this.timeStages;
    let integrateMs = 0;
    for (let s = 0; s < this.substeps; s++) {
      // integrate velocities (gravity)
      const ti0 = timed ? performance.now() : 0;
      for (let b = 0; b < count; b++) {
        if (sm[b] === 0) continue;
        bodies.linVel[3 * b] += gx;
        bodies.linVel[3 * b + 1] += gy;
        bodies.linVel[3 * b + 2] += gz;
      }
      if (timed) integrateMs += performance.now() - ti0;
      warmStartJoints(this.joints, this.jointCtx);
      warmStartContacts(c, bodies);
      solveJoints(this.joints, this.jointCtx, true);
      solveContacts(c, bodies, this.contactSoft, this.jointCtx, true);
      const ti1 = timed ? performance.now() : 0;
      this.integratePositions();
      if (timed) integrateMs += performance.now() - ti1;
      solveJoints(this.joints, this.jointCtx, false);
      solveContacts(c, bodies, this.contactSoft, this.jointCtx, false);
    }
    applyRestitution(c, bodies);
    if (this.ccd !== null && this.spec.ccd) this.ccd.run(bodies, this.materials, this.terrain, false);
    const t2 = timed ? performance.now() : 0;
    measureJoints(this.joints, bodies, this.jointCtx.scratch);
    this.stepCount++;
    if (this.spec.sleep) this.updateSleep();
    this.checkFaults();
    if (this.fault === null) this.checkLeftTerrain();
    this.stepped = this.fault === null;
    this.certifiedFrom = this.fault === null ? from : -1;
    if (timed) {
      const t3 = performance.now();
      const T = this.timings;
      T.collide += t1 - t0;
      T.broad += this.pass.broadMs;
      T.narrow += t1 - t0 - this.pass.broadMs;
      T.solve += t2 - t1 - integrateMs;
      T.integrate += integrateMs;
      T.finish += t3 - t2;
      T.steps++;
    }
  }

  private applyScript(): void {
    const script = this.script;
    const now = this.stepCount * this.dt + this.dt * 1e-6; // this.time, without the getter's boxed return
    while (!this.scriptOverridden && this.scriptCursor < script.length && script[this.scriptCursor].t <= now) {
      const cmd = script[this.scriptCursor++];
      this.setDrive(cmd.throttle, cmd.steer, 'script');
    }
  }

  private integratePositions(): void {
    const h = this.jointCtx.h;
    const bodies = this.bodies, sm = this.solverMass;
    const pos = bodies.pos, rot = bodies.rot, v = bodies.linVel, w = bodies.angVel;
    for (let b = 0; b < bodies.count; b++) {
      const moving = sm[b] > 0 || bodies.kind[b] === BodyKind.Kinematic;
      if (!moving) continue;
      // limit the rotation per substep (the quaternion step below is first order)
      let wx = w[3 * b], wy = w[3 * b + 1], wz = w[3 * b + 2];
      const w2 = wx * wx + wy * wy + wz * wz;
      if (w2 * h * h > MAX_ROTATION_PER_SUBSTEP * MAX_ROTATION_PER_SUBSTEP) {
        const f = MAX_ROTATION_PER_SUBSTEP / (Math.sqrt(w2) * h);
        wx *= f; wy *= f; wz *= f;
        w[3 * b] = wx; w[3 * b + 1] = wy; w[3 * b + 2] = wz;
      }
      pos[3 * b] += h * v[3 * b];
      pos[3 * b + 1] += h * v[3 * b + 1];
      pos[3 * b + 2] += h * v[3 * b + 2];
      // q ← normalize(q + h/2 · (ω, 0) ⊗ q)
      const q = 4 * b;
      const qx = rot[q], qy = rot[q + 1], qz = rot[q + 2], qw = rot[q + 3];
      const hh = 0.5 * h;
      const nx = qx + hh * (wx * qw + wy * qz - wz * qy);
      const ny = qy + hh * (wy * qw + wz * qx - wx * qz);
      const nz = qz + hh * (wz * qw + wx * qy - wy * qx);
      const nw = qw - hh * (wx * qx + wy * qy + wz * qz);
      const inv = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
      rot[q] = nx * inv;
      rot[q + 1] = ny * inv;
      rot[q + 2] = nz * inv;
      rot[q + 3] = nw * inv;
      bodies.updateInertia(b);
    }
  }

  /**
   * Sleeping by islands: dynamic bodies joined by a joint or a contact (with each other, not
   * with static bodies or the terrain) form an island; when every body of an island has been
   * still for TIME_TO_SLEEP it sleeps as one. A body driven by a motor never sleeps.
   */
  private updateSleep(): void {
    const bodies = this.bodies, n = bodies.count, dt = this.dt;
    const parent = this.parent;
    const still2 = SLEEP_SPEED * SLEEP_SPEED, drift2 = SLEEP_DRIFT * SLEEP_DRIFT;
    const pos = bodies.pos, rot = bodies.rot, ap = bodies.sleepPos, aq = bodies.sleepRot;
    for (let b = 0; b < n; b++) {
      parent[b] = b;
      if (bodies.kind[b] !== BodyKind.Dynamic || !bodies.awake[b]) continue;
      const v = bodies.linVel, w = bodies.angVel, r = bodies.boundRadius[b];
      const vv = v[3 * b] ** 2 + v[3 * b + 1] ** 2 + v[3 * b + 2] ** 2;
      const ww = (w[3 * b] ** 2 + w[3 * b + 1] ** 2 + w[3 * b + 2] ** 2) * r * r;
      const moving = vv > still2 || ww > still2;
      // drift from the sleep anchor: centre displacement, and r·θ with θ the rotation angle
      // (sin²(θ/2) = 1 − (q·q_anchor)², θ ≈ 2 sin(θ/2) at these small angles)
      const dx = pos[3 * b] - ap[3 * b], dy = pos[3 * b + 1] - ap[3 * b + 1], dz = pos[3 * b + 2] - ap[3 * b + 2];
      const dot = rot[4 * b] * aq[4 * b] + rot[4 * b + 1] * aq[4 * b + 1] + rot[4 * b + 2] * aq[4 * b + 2] + rot[4 * b + 3] * aq[4 * b + 3];
      const drifted = dx * dx + dy * dy + dz * dz > drift2 || 4 * (1 - dot * dot) * r * r > drift2;
      if (drifted) {
        ap[3 * b] = pos[3 * b]; ap[3 * b + 1] = pos[3 * b + 1]; ap[3 * b + 2] = pos[3 * b + 2];
        aq[4 * b] = rot[4 * b]; aq[4 * b + 1] = rot[4 * b + 1]; aq[4 * b + 2] = rot[4 * b + 2]; aq[4 * b + 3] = rot[4 * b + 3];
      }
      // still: slow (Box2D v3's rule) or jittering in place
      bodies.sleepTime[b] = moving && drifted ? 0 : bodies.sleepTime[b] + dt;
    }
    const joints = this.joints;
    for (let j = 0; j < joints.count; j++) {
      const d = joints.defs[j];
      if (d.motor && joints.motorTarget[j] !== 0) {
        if (d.bodyA < n) bodies.sleepTime[d.bodyA] = 0;
        if (d.bodyB < n) bodies.sleepTime[d.bodyB] = 0;
      }
      if (d.bodyA < n && d.bodyB < n) this.union(d.bodyA, d.bodyB);
    }
    const c = this.contacts;
    for (let i = 0; i < c.count; i++) {
      const a = c.bodyA[i], b = c.bodyB[i];
      if (b < 0 || bodies.kind[a] !== BodyKind.Dynamic || bodies.kind[b] !== BodyKind.Dynamic) continue;
      this.union(a, b);
    }
    const minSleep = this.minSleep;
    minSleep.fill(Infinity);
    for (let b = 0; b < n; b++) {
      if (bodies.kind[b] !== BodyKind.Dynamic) continue;
      const r = this.find(b);
      // a sleeping body in an awake island (touched this step) counts as awake
      const t = bodies.awake[b] ? bodies.sleepTime[b] : 0;
      if (t < minSleep[r]) minSleep[r] = t;
    }
    for (let b = 0; b < n; b++) {
      if (bodies.kind[b] !== BodyKind.Dynamic || !bodies.awake[b]) continue;
      const r = this.find(b);
      if (minSleep[r] >= TIME_TO_SLEEP) {
        bodies.awake[b] = 0;
        this.island[b] = r;
        bodies.linVel.fill(0, 3 * b, 3 * b + 3);
        bodies.angVel.fill(0, 3 * b, 3 * b + 3);
      }
    }
  }

  private find(b: number): number {
    const p = this.parent;
    while (p[b] !== b) {
      p[b] = p[p[b]];
      b = p[b];
    }
    return b;
  }

  private union(a: number, b: number): void {
    const ra = this.find(a), rb = this.find(b);
    if (ra === rb) return;
    // the smaller index is the root: the same islands get the same representative every run
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
  }

  /** Copies the motion state into `backup` (plain loops: no subarray view per step). */
  private backupMotion(): void {
    const b = this.bodies, n = b.count, out = this.backup;
    const pos = b.pos, rot = b.rot, v = b.linVel, w = b.angVel;
    for (let k = 0; k < 3 * n; k++) out[k] = pos[k];
    for (let k = 0; k < 4 * n; k++) out[3 * n + k] = rot[k];
    for (let k = 0; k < 3 * n; k++) out[7 * n + k] = v[k];
    for (let k = 0; k < 3 * n; k++) out[10 * n + k] = w[k];
  }

  private restoreMotion(): void {
    const b = this.bodies, n = b.count, src = this.backup;
    b.pos.set(src.subarray(0, 3 * n));
    b.rot.set(src.subarray(3 * n, 7 * n));
    b.linVel.set(src.subarray(7 * n, 10 * n));
    b.angVel.set(src.subarray(10 * n, 13 * n));
    for (let k = 0; k < n; k++) b.updateInertia(k);
  }

  /** Pauses the world (restoring the step's start) when a body is non-finite or past a limit. */
  private checkFaults(): void {
    const bodies = this.bodies;
    let reason = '', body = -1;
    for (let b = 0; b < bodies.count && body < 0; b++) {
      if (bodies.kind[b] === BodyKind.Static) continue;
      const p = bodies.pos, v = bodies.linVel, w = bodies.angVel, q = bodies.rot;
      const sum = p[3 * b] + p[3 * b + 1] + p[3 * b + 2] + v[3 * b] + v[3 * b + 1] + v[3 * b + 2]
        + w[3 * b] + w[3 * b + 1] + w[3 * b + 2] + q[4 * b] + q[4 * b + 1] + q[4 * b + 2] + q[4 * b + 3];
      if (!Number.isFinite(sum)) {
        reason = 'its pose or velocity became non-finite (NaN or infinity)';
        body = b;
        break;
      }
      // squared norms: no Math.hypot (a variadic call that boxes its arguments) on the per-step path
      const speed2 = v[3 * b] * v[3 * b] + v[3 * b + 1] * v[3 * b + 1] + v[3 * b + 2] * v[3 * b + 2];
      const spin2 = w[3 * b] * w[3 * b] + w[3 * b + 1] * w[3 * b + 1] + w[3 * b + 2] * w[3 * b + 2];
      if (speed2 > FAULT_MAX_SPEED * FAULT_MAX_SPEED) { reason = `its speed ${Math.sqrt(speed2).toPrecision(4)} m/s exceeds ${FAULT_MAX_SPEED} m/s`; body = b; }
      else if (spin2 > FAULT_MAX_ANGULAR_SPEED * FAULT_MAX_ANGULAR_SPEED) { reason = `its angular speed ${Math.sqrt(spin2).toPrecision(4)} rad/s exceeds ${FAULT_MAX_ANGULAR_SPEED} rad/s`; body = b; }
      else if (Math.max(Math.abs(p[3 * b]), Math.abs(p[3 * b + 1]), Math.abs(p[3 * b + 2])) > FAULT_MAX_COORDINATE) {
        reason = `its position is farther than ${FAULT_MAX_COORDINATE} m from the origin`;
        body = b;
      }
    }
    if (body < 0) {
      const c = this.contacts;
      for (let i = 0; i < c.count; i++) {
        if (c.depth[i] > FAULT_MAX_DEPTH) {
          body = c.bodyA[i];
          reason = `a contact is ${c.depth[i].toFixed(3)} m deep (limit ${FAULT_MAX_DEPTH} m): the body is inside ${c.bodyB[i] < 0 ? 'the terrain' : `"${bodies.names[c.bodyB[i]]}"`}`;
          break;
        }
      }
    }
    if (body >= 0) {
      this.restoreMotion();
      this.stepCount--;
      this.fault = { kind: 'limit', step: this.stepCount + 1, body: bodies.names[body], reason: `body "${bodies.names[body]}" at step ${this.stepCount + 1}: ${reason}; the world is paused at step ${this.stepCount}` };
    }
  }

  /**
   * Pauses the world after this step when a robot body's origin is outside the terrain's x, y
   * extent (borders belong to the terrain). Past the edge there is no ground: the robot would
   * fall for minutes until a speed limit stopped it with a fault that no longer says why. The
   * step stands (its state is sound), so the world is paused at this step.
   */
  private checkLeftTerrain(): void {
    const t = this.terrain;
    if (t === null) return;
    const rb = this.robotBodies, pos = this.bodies.pos;
    for (let k = 0; k < rb.length; k++) {
      const b = rb[k];
      const x = pos[3 * b], y = pos[3 * b + 1];
      if (t.contains(x, y)) continue;
      const name = this.bodies.names[b], step = this.stepCount;
      const mm = (v: number) => String(+v.toFixed(3)); // [m] to the millimetre, no trailing zeros
      const x1 = t.x0 + t.cellsX * t.dx, y1 = t.y0 + t.cellsY * t.dy;
      this.fault = {
        kind: 'left-terrain', step, body: name, x, y,
        reason: `body "${name}" left the terrain at x ${x.toFixed(3)}, y ${y.toFixed(3)} m (step ${step}): the terrain spans x ${mm(t.x0)}..${mm(x1)} m, y ${mm(t.y0)}..${mm(y1)} m; the world is paused at step ${step}`,
      };
      return;
    }
  }

  // --- state -------------------------------------------------------------------------------

  /**
   * Everything that affects the future, in one Float64Array: header, bodies (pose, velocity,
   * sleep timer, awake flag, island), joints (motor targets, accumulated impulses), the
   * warm-start cache (last step's contacts and impulses), drive, script cursor, controller.
   */
  saveState(): Float64Array {
    const bodies = this.bodies, n = bodies.count, joints = this.joints, nj = joints.count;
    const c = this.contacts, nc = c.count;
    const ctl = this.controller ? this.controller.state : new Float64Array(0);
    const size = HEADER + n * BODY_STATE + nj * (1 + JOINT_IMPULSE_STRIDE) + nc * CONTACT_STATE + ctl.length;
    const s = new Float64Array(size);
    s[0] = WORLD_STATE_MAGIC;
    s[1] = n;
    s[2] = nj;
    s[3] = nc;
    s[4] = this.stepCount;
    s[5] = this.drive.throttle;
    s[6] = this.drive.steer;
    s[7] = this.scriptCursor;
    s[8] = this.scriptOverridden ? 1 : 0;
    s[9] = ctl.length;
    s[10] = 0;
    s[11] = 0;
    let o = HEADER;
    s.set(bodies.pos.subarray(0, 3 * n), o); o += 3 * n;
    s.set(bodies.rot.subarray(0, 4 * n), o); o += 4 * n;
    s.set(bodies.linVel.subarray(0, 3 * n), o); o += 3 * n;
    s.set(bodies.angVel.subarray(0, 3 * n), o); o += 3 * n;
    s.set(bodies.sleepTime.subarray(0, n), o); o += n;
    for (let b = 0; b < n; b++) s[o++] = bodies.awake[b];
    for (let b = 0; b < n; b++) s[o++] = this.island[b];
    s.set(bodies.sleepPos.subarray(0, 3 * n), o); o += 3 * n;
    s.set(bodies.sleepRot.subarray(0, 4 * n), o); o += 4 * n;
    s.set(joints.motorTarget, o); o += nj;
    s.set(joints.impulses, o); o += nj * JOINT_IMPULSE_STRIDE;
    for (let i = 0; i < nc; i++) {
      s[o++] = c.key[i];
      s[o++] = c.point[3 * i]; s[o++] = c.point[3 * i + 1]; s[o++] = c.point[3 * i + 2];
      s[o++] = c.normal[3 * i]; s[o++] = c.normal[3 * i + 1]; s[o++] = c.normal[3 * i + 2];
      s[o++] = c.normalImpulse[i]; s[o++] = c.t1Impulse[i]; s[o++] = c.t2Impulse[i];
      s[o++] = c.r1Impulse[i]; s[o++] = c.r2Impulse[i];
      s[o++] = c.kind[i]; s[o++] = c.cellI[i]; s[o++] = c.cellJ[i]; s[o++] = c.feature[i];
      s[o++] = c.depth[i]; s[o++] = c.friction[i]; s[o++] = c.restitution[i]; s[o++] = c.rolling[i];
    }
    s.set(ctl, o);
    return s;
  }

  /** Restores a state saved by saveState() of a world built from the same spec; throws on a mismatch. */
  restoreState(s: Float64Array): void {
    const bodies = this.bodies, n = bodies.count, joints = this.joints, nj = joints.count;
    if (!(s instanceof Float64Array) || s.length < HEADER || s[0] !== WORLD_STATE_MAGIC) throw new Error('restoreState: not a saved world state');
    if (s[1] !== n || s[2] !== nj) throw new Error(`restoreState: the state has ${s[1]} bodies and ${s[2]} joints, this world ${n} and ${nj}`);
    const nc = s[3], nctl = s[9];
    const ctl = this.controller ? this.controller.state : new Float64Array(0);
    if (nctl !== ctl.length) throw new Error('restoreState: the drive controller differs from this world\'s');
    const size = HEADER + n * BODY_STATE + nj * (1 + JOINT_IMPULSE_STRIDE) + nc * CONTACT_STATE + nctl;
    if (s.length !== size || !Number.isInteger(nc) || nc < 0) throw new Error(`restoreState: the state is ${s.length} numbers long, expected ${size}`);
    for (let k = 0; k < s.length; k++) if (!Number.isFinite(s[k])) throw new Error(`restoreState: number ${k} of the state is not finite`);
    // validate the contacts' body pairs before anything is copied (a failed restore changes nothing)
    const contactsAt = HEADER + n * BODY_STATE + nj * (1 + JOINT_IMPULSE_STRIDE);
    for (let i = 0; i < nc; i++) {
      const key = s[contactsAt + i * CONTACT_STATE];
      const a = Math.floor(key / 2097152), b = key - a * 2097152 - 1;
      if (!(a >= 0 && a < n && b >= -1 && b < n && Number.isInteger(b))) throw new Error(`restoreState: contact ${i} names bodies that do not exist`);
    }
    this.stepCount = s[4];
    this.drive.throttle = s[5];
    this.drive.steer = s[6];
    this.scriptCursor = s[7];
    this.scriptOverridden = s[8] === 1;
    let o = HEADER;
    bodies.pos.set(s.subarray(o, o + 3 * n)); o += 3 * n;
    bodies.rot.set(s.subarray(o, o + 4 * n)); o += 4 * n;
    bodies.linVel.set(s.subarray(o, o + 3 * n)); o += 3 * n;
    bodies.angVel.set(s.subarray(o, o + 3 * n)); o += 3 * n;
    bodies.sleepTime.set(s.subarray(o, o + n)); o += n;
    for (let b = 0; b < n; b++) bodies.awake[b] = s[o++];
    for (let b = 0; b < n; b++) this.island[b] = s[o++];
    bodies.sleepPos.set(s.subarray(o, o + 3 * n)); o += 3 * n;
    bodies.sleepRot.set(s.subarray(o, o + 4 * n)); o += 4 * n;
    joints.motorTarget.set(s.subarray(o, o + nj)); o += nj;
    joints.impulses.set(s.subarray(o, o + nj * JOINT_IMPULSE_STRIDE)); o += nj * JOINT_IMPULSE_STRIDE;
    const c = this.contacts;
    if (c.capacity < nc) c.resize(nc);
    c.count = nc;
    for (let i = 0; i < nc; i++) {
      c.key[i] = s[o++];
      c.point[3 * i] = s[o++]; c.point[3 * i + 1] = s[o++]; c.point[3 * i + 2] = s[o++];
      c.normal[3 * i] = s[o++]; c.normal[3 * i + 1] = s[o++]; c.normal[3 * i + 2] = s[o++];
      c.normalImpulse[i] = s[o++]; c.t1Impulse[i] = s[o++]; c.t2Impulse[i] = s[o++];
      c.r1Impulse[i] = s[o++]; c.r2Impulse[i] = s[o++];
      c.kind[i] = s[o++]; c.cellI[i] = s[o++]; c.cellJ[i] = s[o++]; c.feature[i] = s[o++];
      c.depth[i] = s[o++]; c.friction[i] = s[o++]; c.restitution[i] = s[o++]; c.rolling[i] = s[o++];
      // the pair from the key
      const a = Math.floor(c.key[i] / 2097152);
      const b = c.key[i] - a * 2097152 - 1;
      c.bodyA[i] = a;
      c.bodyB[i] = b;
      c.slotB[i] = b < 0 ? n : b;
    }
    ctl.set(s.subarray(o, o + nctl));
    for (let b = 0; b < n; b++) bodies.updateInertia(b);
    measureJoints(joints, bodies, this.jointCtx.scratch);
    this.fault = null;
    c.source.fill(-1, 0, nc);
    this.stepped = false;
    this.certifiedFrom = -1;
  }

  /**
   * What the last step changed, for recorders (sim/record/capture.ts copies only that). If the
   * step started from step `since` (the state the step before left, not a restored one) and did
   * not fault, every body not written to `changedBodies` (ascending) and every contact i with
   * `sources[i] ≥ 0` hold, bit for bit, what body b and the previous step's contact sources[i]
   * held: a step writes a body's pose and velocities only where the solver has mass for it or it
   * is kinematic, and leaves a contact carried for a sleeping pair (ContactStore.source) alone
   * unless a body of it woke (then it has solver mass and counts as new, −1). Returns the number
   * of bodies listed, or −1 (nothing written) when the certificate does not hold for `since`.
   */
  lastStepChanges(since: number, changedBodies: Int32Array, sources: Int32Array): number {
    if (this.certifiedFrom < 0 || this.certifiedFrom !== since) return -1;
    const bodies = this.bodies, sm = this.solverMass, c = this.contacts;
    let n = 0;
    for (let b = 0; b < bodies.count; b++) if (sm[b] > 0 || bodies.kind[b] === BodyKind.Kinematic) changedBodies[n++] = b;
    const src = c.source, mA = c.invMassA, mB = c.invMassB;
    for (let i = 0; i < c.count; i++) sources[i] = src[i] >= 0 && mA[i] === 0 && mB[i] === 0 ? src[i] : -1;
    return n;
  }

  /** Hash of saveState() (64 bits as 16 hex digits): equal states, equal hashes. */
  stateHash(): string {
    return hashFloat64(this.saveState());
  }

  // --- report ------------------------------------------------------------------------------

  /**
   * The per-step report in the layout of spec.ts (views of world-owned buffers, valid until the
   * next call). Contact impulses are the step's: divide by dt for the mean force.
   */
  frame(): { poses: Float64Array; velocities: Float64Array; contacts: Float64Array; contactInfo: Int32Array; contactCount: number } {
    const bodies = this.bodies, n = bodies.count, c = this.contacts, nc = c.count, r = this.report;
    r.reserve(n, nc);
    writeBodyReport(r.poses, r.velocities, n, bodies);
    writeContactReport(r.contacts, r.contactInfo, nc, c, this.substeps);
    return {
      poses: r.poses.subarray(0, n * POSE_STRIDE),
      velocities: r.velocities.subarray(0, n * VELOCITY_STRIDE),
      contacts: r.contacts.subarray(0, nc * CONTACT_STRIDE),
      contactInfo: r.contactInfo.subarray(0, nc * CONTACT_INFO_STRIDE),
      contactCount: nc,
    };
  }

  /** Collision-pass counters of the last step. */
  get collideStats() {
    return this.pass.stats;
  }
}

/** FNV-1a over the bytes, two lanes (different offsets) → 16 hex digits. */
export function hashFloat64(a: Float64Array): string {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let h1 = 0x811c9dc5, h2 = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < bytes.length; i++) {
    h1 = Math.imul(h1 ^ bytes[i], 0x01000193);
    h2 = Math.imul(h2 ^ bytes[i], 0x01000193) ^ (h2 >>> 13);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
