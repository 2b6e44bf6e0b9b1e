/**
 * One run of a sweep (issue #31): the scenario's files with the run's axis values applied, and
 * the stop conditions and metrics → a result row. The pool, the in-process driver (and later the
 * queue) are interchangeable drivers around this function; the row depends on nothing but its
 * inputs (the world is deterministic), so it is the same whichever driver ran it.
 *
 * Metrics, computed as the world steps without allocating per step:
 *   distance        [m]  path length of the chassis origin in x, y
 *   timeToGoal      [s]  first time the chassis origin is within the goal's radius (null: never)
 *   success         1 if the goal was reached (or, without a goal, the run lasted its duration)
 *                   with no fault, else 0
 *   maxWheelDepth   [m]  deepest wheel–terrain contact over the run
 *   p95WheelDepth   [m]  95th percentile over steps of the step's deepest wheel–terrain contact
 *                   (steps with a wheel on the ground; nearest-rank)
 *   meanSlip        mean over steps and wheels on the ground of the slip ratio
 *                   (|ω|·r − v)/max(|ω|·r, v), v the wheel centre's speed across its axle; samples
 *                   where both speeds are under SLIP_MIN_SPEED are skipped (slip is 0/0 at rest)
 *   p95Slip         95th percentile of |slip ratio| over the same samples, from a histogram of
 *                   SLIP_HISTOGRAM_BINS bins on [0, 1] (the upper edge of the bin: exact to 1/bins)
 *   maxSlip         largest |slip ratio| over the same samples
 *   energy          [J] motor energy: Σ over steps and motor joints of |τ·ω|·dt, τ the motor's
 *                   effort in the step's last substep (DynamicsWorld.jointMotorEffort), ω the
 *                   joint's rate after the step; braking counts as spent (no regeneration)
 *   maxTilt         [deg] largest angle between the chassis's z axis and the world's
 *   minClearance    [m] smallest height over the terrain of the underside of the chassis's
 *                   collision shape: its bounding box (in the shape's frame), bottom face sampled on
 *                   a CLEARANCE_GRID × CLEARANCE_GRID grid, each point's z minus the terrain height
 *                   under it. The box's face is at or below the real underside, so the value errs
 *                   low (safe); negative when the chassis dips into the ground. Null without terrain
 * A run that faults (or whose world cannot be built) is a row with its fault, not an exception.
 */
import type { ScenarioFiles } from '../app/protocol';
import type { SimServiceImpl } from '../app/service';
import type { SimWorld } from '../app/sim-world';
import type { RecordingSink } from '../record/io';
import { rotateByBody } from '../dynamics/bodies';
import type { DynamicsWorld } from '../dynamics/world';
import { quatRotate, type Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { aabb } from '../shapes/shape';
import { JointKind } from '../dynamics/joints';
import { CylinderShape } from '../shapes/cylinder';
import type { MetricName } from '../scenario/sweep-schema';

/** [m/s] Below this wheel rim speed and ground speed both, a wheel's slip is not sampled. */
export const SLIP_MIN_SPEED = 0.05;
/** Bins of the |slip| histogram on [0, 1] (p95Slip's resolution is 1/this). */
export const SLIP_HISTOGRAM_BINS = 1000;
/** Points per side of the grid sampling the chassis's underside (minClearance). */
export const CLEARANCE_GRID = 5;

/**
 * [W] Σ |τ_j·ω_j| over the joints listed in `motorJoints`: the motors' mechanical power at the end
 * of the world's last step, braking counted as spent (DynamicsWorld.jointMotorEffort). Allocation-free.
 */
export function motorPower(world: DynamicsWorld, motorJoints: Int32Array): number {
  let p = 0;
  for (let k = 0; k < motorJoints.length; k++) {
    const j = motorJoints[k];
    p += Math.abs(world.jointMotorEffort(j) * world.joints.velocity[j]);
  }
  return p;
}

export interface RunStop {
  duration: number;
  goal: { center: [number, number]; radius: number } | null;
}

export interface RunInput {
  id: string;
  /** The axis values (by path), the replicate and its seed: copied into the row. */
  params: Record<string, unknown>;
  replicate: number;
  seed: number;
  stop: RunStop;
  metrics: MetricName[];
}

export interface ResultRow {
  id: string;
  params: Record<string, unknown>;
  replicate: number;
  seed: number;
  /** Each requested metric (null: not defined for this run, e.g. a goal never reached). */
  metrics: Partial<Record<MetricName, number | null>>;
  steps: number;
  simSeconds: number;
  /** The world's fault, or why it could not be built; null for a clean run. */
  fault: string | null;
  /** The final state hash (`terrawheel verify` compares the same hash); '' if no world was built. */
  stateHash: string;
}

/** Where to record the run (the CLI's MCAP file sink), or nothing. */
export interface RunRecording {
  sink: RecordingSink;
  scenarioPath: string;
}

/**
 * Runs one run on `service` (loaded with `files` here). The recording, if any, is stopped before
 * returning. Never throws for a world that cannot be built or faults: that is the row's fault.
 */
export async function runOne(service: SimServiceImpl, files: ScenarioFiles, input: RunInput, recording?: RunRecording): Promise<ResultRow> {
  const row: ResultRow = { id: input.id, params: input.params, replicate: input.replicate, seed: input.seed, metrics: {}, steps: 0, simSeconds: 0, fault: null, stateHash: '' };
  try {
    await service.load(files);
  } catch (e) {
    row.fault = `load: ${(e as Error).message}`;
    return row;
  }
  const world = service.getWorld() as SimWorld;
  if (recording) await service.startRecordingTo(recording.sink, { scenarioPath: recording.scenarioPath });
  try {
    const m = new RunMetrics(world, input.stop);
    const steps = Math.round(input.stop.duration / world.dt);
    const engine = world.engine;
    m.sample(0);
    let done = 0;
    while (done < steps && engine.fault === null && !m.goalReached) {
      if (recording) await service.step(1);
      else world.step(1);
      done++;
      m.sample(done);
    }
    row.steps = done;
    row.simSeconds = done * world.dt;
    row.fault = engine.fault === null ? null : engine.fault.reason;
    row.stateHash = engine.stateHash();
    for (const name of input.metrics) row.metrics[name] = m.value(name, row.fault === null, input.stop.goal !== null);
  } finally {
    if (recording) await service.stopRecording();
  }
  return row;
}

/** The per-step accumulators; the arrays are sized once per run (nothing allocated per step). */
class RunMetrics {
  private readonly engine: SimWorld['engine'];
  private readonly dt: number;
  private readonly base: number;
  private readonly goal: RunStop['goal'];
  /** Wheel body indices, their drive joint, their radius [m]. */
  private readonly wheels: Int32Array;
  private readonly wheelJoint: Int32Array;
  private readonly wheelRadius: Float64Array;
  /** Body index → wheel slot (−1: not a wheel). */
  private readonly wheelSlot: Int32Array;
  /** Per step: the wheel slots touching the terrain this step (1) and the step's deepest wheel contact. */
  private readonly touching: Uint8Array;
  private readonly stepDepth: Float64Array;
  private depthSteps = 0;
  private readonly o: [number, number, number] = [0, 0, 0];
  private readonly axle: [number, number, number] = [0, 0, 0];
  private px = 0;
  private py = 0;
  distance = 0;
  timeToGoal: number | null = null;
  goalReached = false;
  maxDepth = 0;
  slipSum = 0;
  slipCount = 0;
  maxSlip = 0;
  /** Counts of |slip| samples in SLIP_HISTOGRAM_BINS equal bins on [0, 1]. */
  private readonly slipHistogram = new Float64Array(SLIP_HISTOGRAM_BINS);
  maxTiltCos = 1;
  /** Joints with a motor (energy). */
  private readonly motorJoints: Int32Array;
  energy = 0;
  /** The chassis underside's sample points in its shape frame, x y z per point (empty: no shape or no terrain). */
  private readonly underside: Float64Array;
  private readonly shapePos: Vec3 = [0, 0, 0];
  private readonly shapeRot: Quat = [0, 0, 0, 1];
  private readonly local: Vec3 = [0, 0, 0];
  private readonly world: Vec3 = [0, 0, 0];
  minClearance = Infinity;

  constructor(world: SimWorld, stop: RunStop) {
    const engine = world.engine;
    this.engine = engine;
    this.dt = world.dt;
    this.goal = stop.goal;
    const info = world.info();
    this.base = Math.max(0, info.bodies.findIndex((b) => b.role === 'chassis'));
    const wheels: number[] = [];
    const joints: number[] = [];
    const radii: number[] = [];
    info.bodies.forEach((b, i) => {
      if (b.role !== 'wheel') return;
      const j = engine.joints.defs.findIndex((d) => d.bodyB === i && d.kind === JointKind.Revolute && d.motor);
      const shape = engine.bodies.shapes[i];
      wheels.push(i);
      joints.push(j);
      radii.push(shape instanceof CylinderShape ? shape.radius : 0);
    });
    this.wheels = Int32Array.from(wheels);
    this.wheelJoint = Int32Array.from(joints);
    this.wheelRadius = Float64Array.from(radii);
    this.wheelSlot = new Int32Array(engine.bodies.count).fill(-1);
    wheels.forEach((b, k) => (this.wheelSlot[b] = k));
    this.touching = new Uint8Array(wheels.length);
    const motors: number[] = [];
    engine.joints.defs.forEach((d, j) => d.motor && motors.push(j));
    this.motorJoints = Int32Array.from(motors);
    const chassisShape = engine.bodies.shapes[this.base];
    const n = CLEARANCE_GRID;
    this.underside = new Float64Array(chassisShape && engine.terrain ? 3 * n * n : 0);
    if (this.underside.length > 0 && chassisShape) {
      const box = chassisShape.localAabb(aabb());
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < n; k++) {
          const p = 3 * (i * n + k);
          this.underside[p] = box.min[0] + ((box.max[0] - box.min[0]) * i) / (n - 1);
          this.underside[p + 1] = box.min[1] + ((box.max[1] - box.min[1]) * k) / (n - 1);
          this.underside[p + 2] = box.min[2];
        }
      }
    }
    this.stepDepth = new Float64Array(Math.round(stop.duration / world.dt) + 1);
    engine.bodies.originOf(this.o, this.base);
    this.px = this.o[0];
    this.py = this.o[1];
  }

  /** Accumulates the state after `step` steps. */
  sample(step: number): void {
    const e = this.engine, b = e.bodies, o = this.o;
    if (step > 0) this.energy += motorPower(e, this.motorJoints) * this.dt;
    if (this.underside.length > 0 && e.terrain !== null) {
      b.shapePose(this.shapePos, this.shapeRot, this.base);
      const u = this.underside, l = this.local, w = this.world;
      for (let p = 0; p < u.length; p += 3) {
        l[0] = u[p]; l[1] = u[p + 1]; l[2] = u[p + 2];
        quatRotate(w, this.shapeRot, l);
        const gap = this.shapePos[2] + w[2] - e.terrain.heightAt(this.shapePos[0] + w[0], this.shapePos[1] + w[1]);
        if (gap < this.minClearance) this.minClearance = gap;
      }
    }
    b.originOf(o, this.base);
    this.distance += Math.hypot(o[0] - this.px, o[1] - this.py);
    this.px = o[0];
    this.py = o[1];
    if (this.goal !== null && this.timeToGoal === null && Math.hypot(o[0] - this.goal.center[0], o[1] - this.goal.center[1]) <= this.goal.radius) {
      this.timeToGoal = step * this.dt;
      this.goalReached = true;
    }
    // tilt: the chassis z axis's world z is 1 − 2(qx² + qy²) (quaternions stored x, y, z, w)
    const q = 4 * this.base;
    const cz = 1 - 2 * (b.rot[q] * b.rot[q] + b.rot[q + 1] * b.rot[q + 1]);
    if (cz < this.maxTiltCos) this.maxTiltCos = cz;
    // wheel contacts: the step's deepest, and which wheels touch
    this.touching.fill(0);
    const c = e.contacts;
    let deepest = -1;
    for (let k = 0; k < c.count; k++) {
      if (c.bodyB[k] !== -1) continue;
      const slot = this.wheelSlot[c.bodyA[k]];
      if (slot < 0) continue;
      this.touching[slot] = 1;
      if (c.depth[k] > deepest) deepest = c.depth[k];
    }
    if (deepest >= 0) {
      this.stepDepth[this.depthSteps++] = deepest;
      if (deepest > this.maxDepth) this.maxDepth = deepest;
    }
    for (let k = 0; k < this.wheels.length; k++) {
      const j = this.wheelJoint[k];
      if (this.touching[k] === 0 || j < 0) continue;
      const w = this.wheels[k];
      const ax = e.joints.defs[j].axisB;
      const a = rotateByBody(this.axle, b.rot, w, ax[0], ax[1], ax[2]);
      const vx = b.linVel[3 * w], vy = b.linVel[3 * w + 1], vz = b.linVel[3 * w + 2];
      const along = vx * a[0] + vy * a[1] + vz * a[2];
      const v = Math.sqrt(Math.max(0, vx * vx + vy * vy + vz * vz - along * along));
      const rim = Math.abs(e.joints.velocity[j]) * this.wheelRadius[k];
      const top = Math.max(rim, v);
      if (top < SLIP_MIN_SPEED) continue;
      const slip = (rim - v) / top;
      this.slipSum += slip;
      this.slipCount++;
      const mag = Math.abs(slip);
      if (mag > this.maxSlip) this.maxSlip = mag;
      this.slipHistogram[Math.min(SLIP_HISTOGRAM_BINS - 1, Math.floor(mag * SLIP_HISTOGRAM_BINS))]++;
    }
  }

  value(name: MetricName, clean: boolean, hasGoal: boolean): number | null {
    switch (name) {
      case 'distance':
        return this.distance;
      case 'timeToGoal':
        return this.timeToGoal;
      case 'success':
        return clean && (!hasGoal || this.goalReached) ? 1 : 0;
      case 'maxWheelDepth':
        return this.depthSteps > 0 ? this.maxDepth : null;
      case 'p95WheelDepth': {
        if (this.depthSteps === 0) return null;
        const d = this.stepDepth.subarray(0, this.depthSteps).sort();
        return d[Math.min(d.length - 1, Math.ceil(0.95 * d.length) - 1)];
      }
      case 'meanSlip':
        return this.slipCount > 0 ? this.slipSum / this.slipCount : null;
      case 'maxTilt':
        return (Math.acos(Math.max(-1, Math.min(1, this.maxTiltCos))) * 180) / Math.PI;
      case 'p95Slip':
        return this.slipCount > 0 ? histogramQuantile(this.slipHistogram, this.slipCount, 0.95) : null;
      case 'maxSlip':
        return this.slipCount > 0 ? this.maxSlip : null;
      case 'energy':
        return this.energy;
      case 'minClearance':
        return this.minClearance === Infinity ? null : this.minClearance;
    }
  }
}

/**
 * The nearest-rank `q` quantile of `count` samples binned in `hist` (equal bins on [0, 1]): the
 * upper edge of the bin holding the ⌈q·count⌉-th smallest sample.
 */
export function histogramQuantile(hist: Float64Array, count: number, q: number): number {
  const rank = Math.max(1, Math.ceil(q * count));
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i];
    if (seen >= rank) return (i + 1) / hist.length;
  }
  return 1;
}
