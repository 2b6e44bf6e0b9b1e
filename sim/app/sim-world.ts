/**
 * The app's world: a parsed scenario (v1 or v2) and its terrain built into a DynamicsWorld, with
 * what the worker protocol needs around it (world info for the renderer, float32 frames with
 * every body and every contact's impulse, the drive). Owned by the simulation service; used
 * directly by the headless CLI and tests.
 */
import { BodyFlag, BodyKind } from '../dynamics/bodies';
import { cylinderOf } from '../dynamics/build';
import { JointKind } from '../dynamics/joints';
import type { ShapeSpec, WorldSpec } from '../dynamics/spec';
import { JOINT_FRAME_STRIDE, CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';
import type { DynamicsWorld } from '../dynamics/world';
import type { BodyInfo, BodyShape, DriveCommand, WheelCylinder, Frame, JointInfo, TerrainInfo, WorldInfo } from './protocol';
import type { ParsedScenario, ScenarioCamera } from '../scenario/scenario-v2';
import { buildScenarioWorld } from '../scenario/build-world';
import type { Heightfield } from '../terrain/heightfield';
import { terrainOverview } from '../terrain/patch';
import type { RobotSpec } from '../dynamics/spec';
import type { VisualSpec } from '../robot/urdf/urdf-to-robot';

export { JOINT_FRAME_STRIDE };

const JOINT_TYPE_NAMES = ['revolute', 'fixed', 'prismatic', 'ball'] as const;

/**
 * The app's world: a parsed scenario and its terrain built into a `DynamicsWorld`, with the world
 * info, float32 frames and drive the worker protocol needs. Owned by the service; used directly by
 * the CLI and tests.
 */
export class SimWorld {
  readonly engine: DynamicsWorld;
  readonly terrain: Heightfield;
  readonly name: string;
  readonly spec: WorldSpec;
  private readonly bodyInfo: BodyInfo[];
  private readonly baseIndex: number;
  /** The URDF robot's visuals (WorldInfo.visuals), or undefined. */
  readonly visuals: VisualSpec[] | undefined;

  private constructor(name: string, spec: WorldSpec, engine: DynamicsWorld, terrain: Heightfield, visuals?: VisualSpec[]) {
    this.visuals = visuals;
    this.name = name;
    this.spec = spec;
    this.engine = engine;
    this.terrain = terrain;
    const base = spec.robot?.base;
    this.baseIndex = base !== undefined ? engine.bodies.indexOf(base) : -1;
    this.bodyInfo = describeBodies(spec, engine, this.baseIndex);
  }

  /**
   * Builds the world of a parsed scenario on a terrain (a URDF robot, if the scenario names one,
   * loaded and placed by the caller, with its visuals for WorldInfo). Throws ScenarioError naming
   * what is wrong; a start outside the terrain is refused.
   */
  static create(parsed: ParsedScenario, terrain: Heightfield, urdfRobot?: RobotSpec, visuals?: VisualSpec[], robotWarnings: readonly string[] = []): SimWorld {
    const { spec, engine } = buildScenarioWorld(parsed, terrain, urdfRobot);
    const w = new SimWorld(parsed.name, spec, engine, terrain, urdfRobot ? visuals : undefined);
    w.camera = parsed.camera;
    w.robotWarnings = [...robotWarnings];
    return w;
  }

  /** The scenario's starting camera (WorldInfo.camera), if it names one. */
  camera: ScenarioCamera | undefined;

  /** The URDF loader's warnings a user driving the robot must see (WorldInfo.robotWarnings). */
  private robotWarnings: string[] = [];

  get dt(): number {
    return this.engine.dt;
  }

  get stepCount(): number {
    return this.engine.stepCount;
  }

  get time(): number {
    return this.engine.time;
  }

  get scriptActive(): boolean {
    return this.engine.scriptActive;
  }

  get fault(): string | null {
    return this.engine.fault?.reason ?? null;
  }

  setDrive(cmd: DriveCommand, source: 'user' | 'script' = 'user'): void {
    this.engine.setDrive(cmd.throttle, cmd.steer, source);
  }

  getDrive(): DriveCommand {
    return { throttle: this.engine.drive.throttle, steer: this.engine.drive.steer };
  }

  step(n = 1): void {
    this.engine.step(n);
  }

  /** Forward speed of the robot's base (or of body 0) [m/s]: velocity along its local x. */
  speed(): number {
    const b = this.baseIndex >= 0 ? this.baseIndex : 0;
    const w = this.engine.bodies;
    if (w.count === 0) return 0;
    const q = w.rot.subarray(4 * b, 4 * b + 4);
    const fx = 1 - 2 * (q[1] * q[1] + q[2] * q[2]), fy = 2 * (q[0] * q[1] + q[2] * q[3]), fz = 2 * (q[0] * q[2] - q[1] * q[3]);
    return w.linVel[3 * b] * fx + w.linVel[3 * b + 1] * fy + w.linVel[3 * b + 2] * fz;
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
      minHeight: hf.minHeight,
      maxHeight: hf.maxHeight,
      overview: terrainOverview(hf),
    };
    const { joints } = this.describe();
    const info: WorldInfo = { scenarioName: this.name, dt: this.dt, terrain, bodies: this.bodyInfo.map((b) => ({ ...b })), joints, baseBody: this.baseIndex };
    if (this.visuals) info.visuals = this.visuals.map((v) => structuredCloneVisual(v));
    const tm = this.spec.terrainMaterials;
    info.terrainMaterials = { material: tm.material, regions: (tm.regions ?? []).map((r) => structuredClone(r)) };
    if (this.camera) info.camera = { ...this.camera, ...(this.camera.target ? { target: [...this.camera.target] as [number, number, number] } : {}) };
    if (this.robotWarnings.length > 0) info.robotWarnings = [...this.robotWarnings];
    return info;
  }

  /** The bodies and joints as WorldInfo gives them (without the terrain overview: cheap). */
  describe(): Pick<WorldInfo, 'bodies' | 'joints'> {
    const joints: JointInfo[] = this.engine.joints.defs.map((d) => ({
      name: d.name,
      type: JOINT_TYPE_NAMES[d.kind],
      bodyA: d.bodyA < this.engine.bodies.count ? d.bodyA : -1,
      bodyB: d.bodyB,
      motor: d.motor,
    }));
    return { bodies: this.bodyInfo.map((b) => ({ ...b })), joints };
  }

  /** A frame with fresh buffers (the worker transfers them). */
  frame(realtimeFactor = 0): Frame {
    const f = this.engine.frame();
    const n = this.engine.bodies.count;
    const poses = new Float32Array(n * POSE_STRIDE);
    poses.set(f.poses);
    const velocities = new Float32Array(n * VELOCITY_STRIDE);
    velocities.set(f.velocities);
    const contacts = new Float32Array(f.contactCount * CONTACT_STRIDE);
    contacts.set(f.contacts);
    const contactInfo = new Int32Array(f.contactCount * CONTACT_INFO_STRIDE);
    contactInfo.set(f.contactInfo);
    const js = this.engine.joints;
    const joints = new Float32Array(js.count * JOINT_FRAME_STRIDE);
    for (let j = 0; j < js.count; j++) {
      joints[3 * j] = js.position[j];
      joints[3 * j + 1] = js.velocity[j];
      joints[3 * j + 2] = (js.impulses[12 * j + 6] * this.engine.substeps) / this.dt; // the motor's impulse per substep → effort
    }
    return {
      step: this.engine.stepCount,
      time: this.engine.time,
      poses,
      velocities,
      contacts,
      contactInfo,
      joints,
      speed: this.speed(),
      realtimeFactor,
      fault: this.fault,
      faultStep: this.engine.fault?.step,
    };
  }
}

function shapeInfo(s: ShapeSpec): BodyShape {
  switch (s.type) {
    case 'box':
      return { type: 'box', halfExtents: [...s.halfExtents] };
    case 'sphere':
      return { type: 'sphere', radius: s.radius };
    case 'cylinder':
      return { type: 'cylinder', radius: s.radius, height: s.height };
    case 'capsule':
      return { type: 'capsule', radius: s.radius, height: s.height };
    case 'hull':
      return { type: 'hull', points: s.points.map((p) => [p[0], p[1], p[2]]) };
    case 'compound':
      return {
        type: 'compound',
        children: s.children.map((c) => ({ shape: shapeInfo(c.shape) as Exclude<BodyShape, { type: 'compound' }>, position: c.position ?? [0, 0, 0], orientation: c.orientation ?? [0, 0, 0, 1] })),
      };
  }
}

/**
 * [1] Least |cos| between a revolute joint's axis and a cylinder's axis for the cylinder to roll on
 * it (cos 8°): a wheel's joint is its axle, whatever drives it.
 */
const WHEEL_AXLE_MIN_COS = 0.99;

/**
 * Bodies for the renderer, in the world's order. Roles: the robot's base is the chassis; a body
 * the simulation collides with the terrain as an analytic wheel (BodyFlag.AnalyticCylinder: a
 * cylinder, or a compound whose one part is a cylinder, which build.ts unwraps to it) and that
 * turns on a revolute joint about the cylinder's axis is a wheel, driven or not (a steered front
 * wheel, a trailer's or a caster's wheel roll on the terrain through the same wheel algorithm and
 * get the same plots and views); static bodies are static; everything else an obstacle. Shapes
 * are given in the body frame (as in the scenario); a wheel also gets its cylinder there.
 */
function describeBodies(spec: WorldSpec, engine: DynamicsWorld, base: number): BodyInfo[] {
  const specs = [...spec.bodies, ...(spec.robot?.bodies ?? [])];
  const wheels = new Set<number>();
  for (const d of engine.joints.defs) {
    if (d.kind !== JointKind.Revolute) continue;
    if (rollsOn(engine, d.bodyB, d.axisB)) wheels.add(d.bodyB);
    if (d.bodyA !== base && rollsOn(engine, d.bodyA, d.axisA)) wheels.add(d.bodyA);
  }
  return specs.map((b, i) => {
    const role: BodyInfo['role'] = i === base ? 'chassis' : wheels.has(i) ? 'wheel' : engine.bodies.kind[i] === BodyKind.Static ? 'static' : 'obstacle';
    const info: BodyInfo = { name: b.name, role, shape: shapeInfo(b.shape) };
    if (role === 'wheel') info.wheel = wheelCylinder(engine, i);
    return info;
  });
}

/**
 * True if body b is dynamic, collides with the terrain through the analytic wheel algorithm (the
 * simulation's own flag, set where the body is built) and its cylinder's axis lies along `axis`
 * (the joint's, in b's mass frame).
 */
function rollsOn(engine: DynamicsWorld, b: number, axis: readonly number[]): boolean {
  const bodies = engine.bodies;
  if (b < 0 || b >= bodies.count || !(bodies.flags[b] & BodyFlag.AnalyticCylinder) || bodies.kind[b] !== BodyKind.Dynamic) return false;
  // the cylinder's axis is its shape frame's z: the third column of the shape offset's rotation
  const q = bodies.shapeOffsetRot.subarray(4 * b, 4 * b + 4);
  const zx = 2 * (q[0] * q[2] + q[1] * q[3]), zy = 2 * (q[1] * q[2] - q[0] * q[3]), zz = 1 - 2 * (q[0] * q[0] + q[1] * q[1]);
  const n = Math.hypot(axis[0], axis[1], axis[2]);
  return n > 0 && Math.abs(zx * axis[0] + zy * axis[1] + zz * axis[2]) / n >= WHEEL_AXLE_MIN_COS;
}

/**
 * The analytic wheel's cylinder of body b in its body frame: the engine keeps it in the mass frame
 * (shape offset from the centre of mass), and the body frame's origin is the centre of mass less
 * comLocal, so the centre is offset + comLocal.
 */
function wheelCylinder(engine: DynamicsWorld, b: number): WheelCylinder {
  const bodies = engine.bodies;
  const c = cylinderOf(bodies.shapes[b]);
  if (c === null) throw new Error(`body "${bodies.names[b]}": flagged as an analytic wheel without a cylinder shape`);
  const p = bodies.shapeOffsetPos, m = bodies.comLocal, q = bodies.shapeOffsetRot;
  return {
    radius: c.radius,
    height: c.height,
    position: [p[3 * b] + m[3 * b], p[3 * b + 1] + m[3 * b + 1], p[3 * b + 2] + m[3 * b + 2]],
    orientation: [q[4 * b], q[4 * b + 1], q[4 * b + 2], q[4 * b + 3]],
  };
}

/** A copy the caller may keep or transfer (no aliasing of the world's own arrays). */
function structuredCloneVisual(v: VisualSpec): VisualSpec {
  const g = v.geometry;
  const geometry: VisualSpec['geometry'] =
    g.type === 'box' ? { type: 'box', size: [...g.size] } : g.type === 'mesh' ? { ...g, scale: [...g.scale] } : { ...g };
  const out: VisualSpec = { ...v, geometry, position: [...v.position], orientation: [...v.orientation] };
  if (v.color) out.color = [...v.color];
  return out;
}
