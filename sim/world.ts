/**
 * The world: one terrain, one robot, a drive command, a fixed step. Owned by the simulation
 * worker in the app and used directly by the headless CLI and tests.
 *
 * Deterministic: the state is plain float64 numbers advanced by the same operations in the same
 * order, so the same build with the same inputs gives bit-identical states (stateHash pins it).
 */
import { ContactBuffer } from './collision/contact';
import type { Quat } from './math/quat';
import type { Vec3 } from './math/vec3';
import { quatMultiply, quatRotate } from './math/quat';
import type { BodyInfo, DriveCommand, Frame, TerrainInfo, WorldInfo } from './protocol';
import {
  chassisQuat,
  createRoverState,
  stepRover,
  WHEEL_COUNT,
  wheelOffset,
  type RobotSpec,
  type RoverState,
} from './robot/skid-steer';
import type { Scenario } from './scenario';
import type { Heightfield } from './terrain/heightfield';

/** Rx(−90°): takes a wheel shape's local z (its cylinder axis) onto the chassis +y axle. */
const AXLE_FROM_LOCAL_Z: Quat = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];

/** Largest number of wheel–terrain contacts kept per step (4 wheels × 2 normal groups × 4 points, with margin). */
export const WORLD_MAX_CONTACTS = 64;

/**
 * Computes one wheel's contacts against the terrain into `out` (appending), tagging each with
 * `body`. Supplied by the collision module (analytic cylinder–terrain); a world without one
 * shows no contacts.
 */
export type WheelContactFn = (
  out: ContactBuffer,
  center: Readonly<Vec3>,
  axis: Readonly<Vec3>,
  wheel: WheelCylinder,
  hf: Heightfield,
) => void;

/** A wheel as a cylinder: [m] radius and half its width (the cylinder's half length). */
export interface WheelCylinder {
  readonly radius: number;
  readonly halfHeight: number;
}

export class World {
  readonly scenario: Scenario;
  readonly terrain: Heightfield;
  readonly robot: RobotSpec;
  readonly dt: number;
  readonly state: RoverState;
  readonly contacts: ContactBuffer;
  /** Which body each contact belongs to (index into info().bodies). */
  readonly contactBody: Int32Array;
  stepCount = 0;
  private drive: DriveCommand = { throttle: 0, steer: 0 };
  private scriptCursor = 0;
  private scriptOverridden = false;
  private readonly wheelContacts: WheelContactFn | null;
  private readonly scratchQuat: Quat = [0, 0, 0, 1];
  private readonly scratchA: Vec3 = [0, 0, 0];
  private readonly scratchB: Vec3 = [0, 0, 0];
  private readonly scratchWheel: Quat = [0, 0, 0, 1];
  /** Per-step scratch of updateContacts (the step allocates nothing). */
  private readonly wheelCenter: Vec3 = [0.5, 0.5, 0.5];
  private readonly wheelAxis: Vec3 = [0.5, 0.5, 0.5];
  private readonly wheelCylinder: WheelCylinder;

  constructor(scenario: Scenario, terrain: Heightfield, wheelContacts: WheelContactFn | null = null) {
    this.scenario = scenario;
    this.terrain = terrain;
    this.robot = scenario.robot;
    this.dt = scenario.dt;
    const [x, y] = scenario.start.position;
    if (!terrain.contains(x, y)) {
      throw new Error(
        `scenario: start position (${x}, ${y}) is outside the terrain, which spans x ${terrain.x0}..${terrain.x0 + terrain.cellsX * terrain.dx} m, y ${terrain.y0}..${terrain.y0 + terrain.cellsY * terrain.dy} m`,
      );
    }
    this.state = createRoverState(this.robot, x, y, scenario.start.yaw, terrain);
    this.contacts = new ContactBuffer(WORLD_MAX_CONTACTS);
    this.contactBody = new Int32Array(WORLD_MAX_CONTACTS);
    this.wheelContacts = wheelContacts;
    this.wheelCylinder = { radius: this.robot.wheelRadius, halfHeight: this.robot.wheelWidth / 2 };
    this.updateContacts();
  }

  get time(): number {
    return this.stepCount * this.dt;
  }

  /**
   * Sets the drive command; values are clamped to [−1, 1] and non-finite values become 0.
   * A command from the user (the default) takes over from the scenario's script for the rest
   * of the run, so a person who starts driving is never overridden by a scripted command.
   */
  setDrive(cmd: DriveCommand, source: 'user' | 'script' = 'user'): void {
    const clamp = (v: number) => (Number.isFinite(v) ? Math.max(-1, Math.min(1, v)) : 0);
    this.drive = { throttle: clamp(cmd.throttle), steer: clamp(cmd.steer) };
    if (source === 'user') this.scriptOverridden = true;
  }

  /** True once a user command has taken over from the script. */
  get scriptActive(): boolean {
    return !this.scriptOverridden && this.scriptCursor < this.scenario.script.length;
  }

  getDrive(): DriveCommand {
    return { ...this.drive };
  }

  step(n = 1): void {
    const script = this.scenario.script;
    for (let k = 0; k < n; k++) {
      // scripted commands take effect at the first step whose start time reaches their t
      while (!this.scriptOverridden && this.scriptCursor < script.length && script[this.scriptCursor].t <= this.time + this.dt * 1e-9) {
        const c = script[this.scriptCursor++];
        this.setDrive(c, 'script');
      }
      stepRover(this.state, this.robot, this.drive.throttle, this.drive.steer, this.dt, this.terrain);
      this.stepCount++;
    }
    this.updateContacts();
  }

  /** Wheel k's centre (world) and axle axis (world, unit: the chassis y axis). */
  wheelPose(k: number, outCenter: Vec3, outAxis: Vec3): void {
    const s = this.state;
    const q = chassisQuat(this.scratchQuat, s);
    wheelOffset(this.scratchA, this.robot, k);
    quatRotate(outCenter, q, this.scratchA);
    outCenter[0] += s.x;
    outCenter[1] += s.y;
    outCenter[2] += s.z;
    this.scratchB[0] = 0;
    this.scratchB[1] = 1;
    this.scratchB[2] = 0;
    quatRotate(outAxis, q, this.scratchB);
  }

  private updateContacts(): void {
    this.contacts.clear();
    if (!this.wheelContacts) return;
    const center = this.wheelCenter, axis = this.wheelAxis;
    for (let k = 0; k < WHEEL_COUNT; k++) {
      const before = this.contacts.count;
      this.wheelPose(k, center, axis);
      this.wheelContacts(this.contacts, center, axis, this.wheelCylinder, this.terrain);
      for (let c = before; c < this.contacts.count; c++) this.contactBody[c] = 1 + k;
    }
  }

  info(): WorldInfo {
    const hf = this.terrain;
    const terrain: TerrainInfo = {
      cols: hf.cols,
      rows: hf.rows,
      dx: hf.dx,
      dy: hf.dy,
      x0: hf.x0,
      y0: hf.y0,
      heights: Float32Array.from(hf.heights),
      minHeight: hf.minHeight,
      maxHeight: hf.maxHeight,
    };
    const r = this.robot;
    const bodies: BodyInfo[] = [{ name: 'chassis', role: 'chassis', shape: { type: 'box', halfExtents: [...r.chassisHalfExtents] } }];
    const names = ['wheel_front_left', 'wheel_front_right', 'wheel_rear_left', 'wheel_rear_right'];
    for (let k = 0; k < WHEEL_COUNT; k++) {
      bodies.push({ name: names[k], role: 'wheel', shape: { type: 'cylinder', radius: r.wheelRadius, height: r.wheelWidth } });
    }
    return { scenarioName: this.scenario.name, dt: this.dt, terrain, bodies };
  }

  /**
   * A frame with fresh buffers (the worker transfers them). Wheels' local z (the cylinder axis
   * in BodyShape convention) is mapped onto the axle: wheel orientation = chassis · Rx(−90°) · Ry(spin).
   */
  frame(realtimeFactor = 0): Frame {
    const s = this.state;
    const poses = new Float32Array(7 * (1 + WHEEL_COUNT));
    const q = chassisQuat(this.scratchQuat, s);
    poses.set([s.x, s.y, s.z, q[0], q[1], q[2], q[3]], 0);
    const center: Vec3 = [0, 0, 0];
    const axis: Vec3 = [0, 0, 0];
    for (let k = 0; k < WHEEL_COUNT; k++) {
      this.wheelPose(k, center, axis);
      const half = s.spin[k] * 0.5;
      // w = q · Rx(−90°) · Rz(spin)
      const rz: Quat = [0, 0, Math.sin(half), Math.cos(half)];
      const w = quatMultiply(this.scratchWheel, quatMultiply(this.scratchWheel, q, AXLE_FROM_LOCAL_Z), rz);
      poses.set([center[0], center[1], center[2], w[0], w[1], w[2], w[3]], 7 * (1 + k));
    }
    const n = this.contacts.count;
    const contacts = new Float32Array(7 * n);
    const contactInfo = new Int32Array(4 * n);
    for (let c = 0; c < n; c++) {
      for (let a = 0; a < 3; a++) {
        contacts[7 * c + a] = this.contacts.point[3 * c + a];
        contacts[7 * c + 3 + a] = this.contacts.normal[3 * c + a];
      }
      contacts[7 * c + 6] = this.contacts.depth[c];
      contactInfo[4 * c] = this.contacts.kind[c];
      contactInfo[4 * c + 1] = this.contactBody[c];
      contactInfo[4 * c + 2] = this.contacts.cellI[c];
      contactInfo[4 * c + 3] = this.contacts.cellJ[c];
    }
    return { step: this.stepCount, time: this.time, poses, contacts, contactInfo, speed: s.v, realtimeFactor };
  }

  /** FNV-1a hash over the exact bits of the state: equal hashes ⇔ (almost surely) identical states. */
  stateHash(): string {
    const s = this.state;
    const vals = new Float64Array([s.x, s.y, s.z, s.yaw, s.roll, s.pitch, s.v, s.w, ...s.spin, this.stepCount]);
    const bytes = new Uint8Array(vals.buffer);
    let h = 0x811c9dc5;
    for (let k = 0; k < bytes.length; k++) {
      h ^= bytes[k];
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
  }
}
