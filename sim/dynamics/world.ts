/**
 * The rigid-body world: a fixed step, run as Box2D v3's soft step
 *
 *   drive → collide (once per step) → prepare contacts and joints →
 *   substeps × [integrate velocities → warm start → solve (bias) → integrate positions → relax]
 *   → restitution (and time-of-impact clamping) → finish: joint measures, sleep, fault check
 *   (this step's contacts, with their impulses, become the next step's warm-start cache).
 *
 * stepOnce() is that list, one method per stage. Beside this file: world-state.ts (save,
 * restore, hash), islands.ts (sleep), faults.ts (the checks that stop the world), report.ts
 * (the per-step frame), collide.ts (the collision pass), contacts.ts and joints/ (the rows).
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
import { CONTACT_DAMPING_RATIO, CONTACT_HERTZ, CONTACT_STIFFEN_DEPTH, CONTACT_STIFFEN_MAX_RATE, JOINT_DAMPING_RATIO, JOINT_HERTZ, MAX_ROTATION_PER_SUBSTEP } from './constants';
import type { DriveController } from './drive';
import type { ContinuousPass } from './ccd';
import type { WorldFault } from './faults';
import { MotionBackup, findLeftTerrain, findLimitFault } from './faults';
import { SleepIslands, resetSleepAnchor } from './islands';
import type { JointSolveContext, JointStore } from './joints';
import { JointScratch, measureJoints, prepareJoints, solveJoints, warmStartJoints } from './joints';
import { I_MOTOR, JOINT_IMPULSE_STRIDE } from './joints/store';
import type { MaterialTable } from './materials';
import { ContactSoftness, Softness } from './soft';
import type { ScriptCommandSpec, WorldSpec } from './spec';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from './frame-layout';
import { ReportArrays, contactElements, writeBodyReport, writeContactReport } from './report';
import { hashFloat64, restoreWorldState, saveWorldState } from './world-state';
import type { Heightfield } from '../terrain/heightfield';
import type { Vec3 } from '../math/vec3';

export type { WorldFault } from './faults';
export { WORLD_STATE_MAGIC, hashFloat64 } from './world-state';

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
  private readonly islands: SleepIslands;
  /** Per body slot: inverse mass the solver may use this step (0: static, kinematic, asleep). */
  private readonly solverMass: Float64Array;
  private readonly contactSoft = new ContactSoftness();
  private readonly jointSoft = new Softness();
  private readonly jointCtx: JointSolveContext;
  private readonly wakeFn: (b: number) => void;
  /** The motion state at the start of the step (a limit fault restores it). */
  private readonly motionBackup: MotionBackup;
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
  /** [ms] Integration time of the substeps of this step (written only when timeStages). */
  private integrateMs = 0;
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
    // twins: a sleeping pair's contacts move from one to the other by block copies (collide.ts, carry)
    [this.contacts, this.cache] = ContactStore.twins(Math.max(64, n * 8));
    this.pass = new CollisionPass(bodies);
    this.islands = new SleepIslands(n);
    this.island = this.islands.island;
    this.solverMass = new Float64Array(n + 1);
    this.motionBackup = new MotionBackup(n);
    this.robotBodies = Int32Array.from(spec.robot?.bodies ?? [], (b) => bodies.indexOf(b.name));
    const h = this.dt / this.substeps;
    this.contactSoft.configure(Math.min(CONTACT_HERTZ, 0.25 / h), CONTACT_DAMPING_RATIO, h, CONTACT_STIFFEN_DEPTH, CONTACT_STIFFEN_MAX_RATE / h);
    this.jointSoft.setHertz(Math.min(JOINT_HERTZ, 0.25 / h), JOINT_DAMPING_RATIO, h);
    this.jointCtx = { bodies, invMass: this.solverMass, soft: this.jointSoft, h, invH: 1 / h, scratch: new JointScratch() };
    this.wakeFn = (b: number) => this.wakeBody(b);
    for (let b = 0; b < n; b++) {
      bodies.updateInertia(b);
      resetSleepAnchor(bodies, b);
    }
    measureJoints(joints, bodies, this.jointCtx.scratch);
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
    this.islands.wake(this.bodies, b);
  }

  /** Advances n fixed steps (stops early, and does nothing, once a fault is set). */
  step(n = 1): void {
    for (let k = 0; k < n && this.fault === null; k++) this.stepOnce();
  }

  /** One fixed step: the stages, in order (each a method below). */
  private stepOnce(): void {
    const timed = this.timeStages;
    const from = this.stepped ? this.stepCount : -1;
    this.driveStage();
    // keep a copy of the motion state: a fault restores it, so the world never holds NaN
    this.motionBackup.save(this.bodies);
    const t0 = timed ? performance.now() : 0;
    if (!this.collideStage()) return;
    const t1 = timed ? performance.now() : 0;
    this.prepareStage();
    this.substepStage();
    this.restitutionStage();
    const t2 = timed ? performance.now() : 0;
    this.finishStage(from);
    if (timed) {
      const t3 = performance.now();
      const T = this.timings;
      T.collide += t1 - t0;
      T.broad += this.pass.broadMs;
      T.narrow += t1 - t0 - this.pass.broadMs;
      T.solve += t2 - t1 - this.integrateMs;
      T.integrate += this.integrateMs;
      T.finish += t3 - t2;
      T.steps++;
    }
  }

  /** Drive: the script's due commands, then the controller turns the drive into motor targets. */
  private driveStage(): void {
    this.applyScript();
    this.controller?.update(this.drive, this.dt, this.joints, this.bodies);
  }

  /**
   * Collide: this step's contacts, warm-started from the cache (last step's contacts). False
   * when the pass overflowed (too many overlapping pairs): then the world is paused with a
   * fault before anything moved, and the step ends here.
   */
  private collideStage(): boolean {
    const swap = this.cache;
    this.cache = this.contacts;
    this.contacts = swap;
    this.pass.timeStages = this.timeStages;
    this.pass.run(this.bodies, this.joints, this.materials, this.terrain, this.dt, this.cache, this.contacts, this.wakeFn);
    const overflow = this.pass.overflow;
    if (overflow !== null) {
      // too many overlapping pairs to collide: pause before this step (nothing moved yet)
      const step = this.stepCount + 1;
      this.fault = { kind: 'limit', step, body: this.bodies.names[overflow.body], reason: `${overflow.reason.replace('STEP', String(step))}; the world is paused at step ${this.stepCount}` };
      this.stepped = false;
      return false;
    }
    return true;
  }

  /** Prepare: solver masses, the step's start poses (contact separations are tracked from them), contact rows. */
  private prepareStage(): void {
    const bodies = this.bodies, count = bodies.count;
    // solver masses: 0 for anything the solver must not move this step
    const sm = this.solverMass;
    for (let b = 0; b < count; b++) sm[b] = bodies.kind[b] === BodyKind.Dynamic && bodies.awake[b] ? bodies.invMass[b] : 0;
    sm[count] = 0;
    // (plain loops: no subarray view per step)
    const pos = bodies.pos, rot = bodies.rot, pos0 = bodies.pos0, rot0 = bodies.rot0;
    for (let k = 0; k < 3 * count; k++) pos0[k] = pos[k];
    for (let k = 0; k < 4 * count; k++) rot0[k] = rot[k];
    prepareContacts(this.contacts, bodies, sm);
  }

  /** Substeps × [integrate velocities → warm start → solve (bias) → integrate positions → relax]. */
  private substepStage(): void {
    const bodies = this.bodies, count = bodies.count, sm = this.solverMass, c = this.contacts;
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
      // joint frames at the step's start poses (later substeps: the last relax pass's frames)
      if (s === 0) prepareJoints(this.joints, this.jointCtx);
      warmStartJoints(this.joints, this.jointCtx);
      warmStartContacts(c, bodies);
      solveJoints(this.joints, this.jointCtx, true);
      solveContacts(c, bodies, this.contactSoft, this.jointCtx, true);
      const ti1 = timed ? performance.now() : 0;
      this.integratePositions();
      if (timed) integrateMs += performance.now() - ti1;
      prepareJoints(this.joints, this.jointCtx);
      solveJoints(this.joints, this.jointCtx, false);
      solveContacts(c, bodies, this.contactSoft, this.jointCtx, false);
    }
    if (timed) this.integrateMs = integrateMs;
  }

  /** Restitution on the contacts that closed fast, then time-of-impact clamping of fast bodies. */
  private restitutionStage(): void {
    applyRestitution(this.contacts, this.bodies);
    if (this.ccd !== null && this.spec.ccd) this.ccd.run(this.bodies, this.materials, this.terrain, false);
  }

  /** Finish: joint measures, the step count, sleep, the fault checks, the change certificate. */
  private finishStage(from: number): void {
    const bodies = this.bodies;
    measureJoints(this.joints, bodies, this.jointCtx.scratch);
    this.stepCount++;
    if (this.spec.sleep) this.islands.update(bodies, this.joints, this.contacts, this.dt);
    const limit = findLimitFault(bodies, this.contacts, this.stepCount);
    if (limit !== null) {
      this.motionBackup.restore(bodies);
      this.stepCount--;
      this.fault = limit;
    } else {
      this.fault = findLeftTerrain(this.terrain, bodies, this.robotBodies, this.stepCount);
    }
    this.stepped = this.fault === null;
    this.certifiedFrom = this.fault === null ? from : -1;
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

  // --- state -------------------------------------------------------------------------------

  /**
   * Everything that affects the future, in one Float64Array: header, bodies (pose, velocity,
   * sleep timer, awake flag, island), joints (motor targets, accumulated impulses), the
   * warm-start cache (last step's contacts and impulses), drive, script cursor, controller.
   */
  saveState(): Float64Array {
    return saveWorldState(this);
  }

  /** Restores a state saved by saveState() of a world built from the same spec; throws on a mismatch. */
  restoreState(s: Float64Array): void {
    restoreWorldState(this, s);
    measureJoints(this.joints, this.bodies, this.jointCtx.scratch);
    this.fault = null;
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
    contactElements(r.elements, 0, nc, c.point, c.bodyB, c.cellI, c.cellJ, this.terrain);
    writeContactReport(r.contacts, r.contactInfo, nc, c, r.elements, this.substeps);
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

  /**
   * [N·m for a revolute joint, N for a prismatic one] The effort joint `j`'s motor applied during
   * the last substep of the last step: its accumulated motor impulse over the substep length
   * dt/substeps (the warm start re-applies the whole accumulated impulse each substep, so that
   * impulse is what the substep received). Positive turns or moves body B positively about or
   * along the axis relative to A, the sign of `joints.velocity[j]` (joints/index.ts), so
   * effort · velocity is the motor's mechanical power [W] at the end of the step, negative while
   * it brakes. Bounded by the joint's maxMotorEffort. 0 for a joint without a motor and before the
   * first step. Allocation-free (sweep metrics read it every step, sim/batch/run.ts).
   */
  jointMotorEffort(j: number): number {
    if (!this.joints.defs[j].motor) return 0;
    return this.joints.impulses[JOINT_IMPULSE_STRIDE * j + I_MOTOR] * this.jointCtx.invH;
  }
}
