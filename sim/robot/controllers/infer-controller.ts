/**
 * Guesses how a robot is driven from its joint names and start-pose geometry: enough for the
 * bundled robots (assets/robots/) and for URDFs named the same way. A scenario's explicit
 * "controller" always wins.
 *
 * Rules:
 *  - A wheel joint is a revolute joint without limits (URDF continuous) whose joint or child
 *    body name contains "wheel" and not "caster", reachable from the base without crossing a
 *    ball joint (a trailer's wheels roll freely).
 *  - A steering joint is a revolute joint with limits whose name contains "steer" or "corner",
 *    or whose axis is within STEER_AXIS_TILT of the base's vertical with a wheel joint below it
 *    (the JPL Open Source Rover names its steering joints "front_wheel_joint_L").
 *  - Left or right from the sign of the joint anchor's lateral coordinate in the base frame
 *    (+y = left, REP-103); front or rear from the forward coordinate.
 *  - Two steering joints → Ackermann, driving the wheels not mounted on a steering link (rear
 *    drive); three or more, each with a wheel below it → all-wheel steering (every wheel
 *    driven, each steered by the steering joint on its way to the base); no steering joint:
 *    two wheels → differential, more → skid-steer.
 *  - A scenario may pick the kind (`kind`); the parameters are then inferred for that kind.
 *  - Wheel radius from the wheel body's cylinder (or sphere); track and wheelbase from anchors.
 */
import type { BodySpec, ControllerSpec, JointSpec, RobotSpec, Vec3Spec } from '../../dynamics/spec';
import { quatRotateInverse } from '../../math/quat';
import { driveFrame } from './drive-controller';

/** [m/s] Top speed of an inferred controller. */
export const INFERRED_MAX_SPEED = 2;
/** [m/s²] Forward acceleration limit of an inferred controller. */
export const INFERRED_MAX_ACCELERATION = 3;
/** [rad/s] Top yaw rate of an inferred skid-steer controller. */
export const INFERRED_MAX_YAW_RATE = 1.6;
/** [rad/s²] Yaw acceleration limit of an inferred skid-steer controller. */
export const INFERRED_MAX_YAW_ACCELERATION = 6;
/** [N·m] Least wheel torque when no joint gives an effort limit (more for a heavy robot: inferController). */
export const INFERRED_MAX_TORQUE = 20;
/** [rad] Inner steering angle when the steering joints have no usable limits. */
export const INFERRED_MAX_STEER = 0.5;
/** [m] Anchors closer than this to the centre line cannot be called left or right. */
const SIDE_TOLERANCE = 1e-3;
/** [rad] A limited revolute joint whose axis is this close to the base's vertical, with a wheel below it, steers. */
export const STEER_AXIS_TILT = (30 * Math.PI) / 180;
/** [rad] Largest steering angle an inferred steering controller commands (a joint's own limits may be tighter). */
const MAX_INFERRED_STEER = 1.4;

/** A drive controller inferred from a URDF's joint names, or why none was. */
export interface InferredController {
  controller?: ControllerSpec;
  /** Why nothing was inferred (empty when a controller was). */
  reason: string;
}

function wheelRadius(body: BodySpec | undefined): number | undefined {
  if (!body) return undefined;
  const s = body.shape;
  if (s.type === 'cylinder' || s.type === 'sphere') return s.radius;
  if (s.type === 'compound') {
    for (const c of s.children) if (c.shape.type === 'cylinder' || c.shape.type === 'sphere') return c.shape.radius;
  }
  return undefined;
}

/**
 * `jointEfforts`: [N·m] effort limits by joint name (URDF <limit effort>); the smallest driven one
 * caps maxTorque; without any, maxTorque is the larger of INFERRED_MAX_TORQUE and the torque that
 * slips a wheel carrying its share of the weight (m·g·r / wheels). `kind`: the controller type to
 * infer (default: chosen by the rules above).
 */
export function inferController(robot: RobotSpec, jointEfforts: Record<string, number> = {}, kind?: ControllerSpec['type'], forwardYawGiven?: number): InferredController {
  const base = robot.bodies.find((b) => b.name === robot.base);
  if (!base) return { reason: `base body "${robot.base}" not found` };
  let { q, p: bp } = driveFrame(robot, 0);
  const local = (p: Vec3Spec): [number, number, number] => quatRotateInverse([0, 0, 0], q, [p[0] - bp[0], p[1] - bp[1], p[2] - bp[2]]) as [number, number, number];

  // Bodies reachable from the base without crossing a ball joint.
  const reach = new Set<string>([robot.base]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const j of robot.joints) {
      if (j.type === 'ball' || !j.bodyA) continue;
      if (reach.has(j.bodyA) !== reach.has(j.bodyB)) {
        reach.add(j.bodyA);
        reach.add(j.bodyB);
        changed = true;
      }
    }
  }
  const bodies = new Map(robot.bodies.map((b) => [b.name, b]));
  const isWheel = (j: JointSpec): boolean =>
    j.type === 'revolute' && !j.limits && /wheel/i.test(`${j.name} ${j.bodyB}`) && !/caster/i.test(`${j.name} ${j.bodyB}`) && reach.has(j.bodyB);
  const wheels = robot.joints.filter(isWheel);
  if (wheels.length < 2) return { reason: `found ${wheels.length} wheel joint(s) (continuous joints named "...wheel..."), need 2 or more` };
  // the drive frame: +x forward (REP-103) unless the wheels spin about the base's x
  const forwardYaw = forwardYawGiven ?? inferForwardYaw(wheels, local, (d) => quatRotateInverse([0, 0, 0], q, d) as [number, number, number]);
  if (forwardYaw !== 0) ({ q, p: bp } = driveFrame(robot, forwardYaw)); // `local` reads the new frame
  const frame = forwardYaw !== 0 ? { forwardYaw } : {};
  // the joint each body hangs on, to walk from a wheel up to the base
  const parentJoint = new Map<string, JointSpec>();
  for (const j of robot.joints) if (j.bodyA) parentJoint.set(j.bodyB, j);
  const above = (w: JointSpec): JointSpec[] => {
    const out: JointSpec[] = [];
    for (let b = w.bodyA, guard = 0; b !== undefined && b !== robot.base && guard < robot.joints.length; guard++) {
      const j = parentJoint.get(b);
      if (!j) break;
      out.push(j);
      b = j.bodyA;
    }
    return out;
  };
  const wheelBelow = new Set(wheels.flatMap((w) => above(w).map((j) => j.name)));
  const vertical = (j: JointSpec): boolean => {
    const a = quatRotateInverse([0, 0, 0], q, j.axis ?? [0, 0, 1]);
    return Math.abs(a[2]) >= Math.cos(STEER_AXIS_TILT) * Math.hypot(a[0], a[1], a[2]);
  };
  const steering = robot.joints.filter((j) => j.type === 'revolute' && j.limits && reach.has(j.bodyB)
    && (/steer|corner/i.test(j.name) || (vertical(j) && wheelBelow.has(j.name))));

  const side = (j: JointSpec): number => {
    const y = local(j.anchor ?? [0, 0, 0])[1];
    return y > SIDE_TOLERANCE ? 1 : y < -SIDE_TOLERANCE ? -1 : 0;
  };
  const radii = wheels.map((j) => wheelRadius(bodies.get(j.bodyB)));
  if (radii.some((r) => r === undefined)) return { reason: 'a wheel body has no cylinder or sphere to take the radius from' };
  const efforts = wheels.map((j) => jointEfforts[j.name]).filter((t): t is number => typeof t === 'number' && t > 0);
  // no effort limits: at least the torque that slips a wheel carrying its share of the robot's
  // weight (μ = 1), so that a heavy robot can skid-turn (a 290 kg Warthog at 20 N·m drove but could not)
  let mass = 0;
  for (const b of robot.bodies) mass += b.mass ?? 0;
  const slipTorque = (mass * 9.81 * Math.max(...(radii as number[]))) / wheels.length;
  const maxTorque = efforts.length > 0 ? Math.min(...efforts) : Math.max(INFERRED_MAX_TORQUE, Math.ceil(slipTorque));

  const chosen = kind ?? (steering.length === 2 ? 'ackermann' : steering.length > 2 ? 'all-wheel-steer' : wheels.length === 2 ? 'differential' : 'skid-steer');
  const steerLimit = (js: JointSpec[]): number => {
    const lim = js.flatMap((j) => j.limits ?? []).map(Math.abs).filter((x) => x > 0);
    return lim.length > 0 ? Math.min(...lim, MAX_INFERRED_STEER) : INFERRED_MAX_STEER;
  };
  if (chosen === 'all-wheel-steer') {
    if (steering.length === 0) return { reason: 'all-wheel steering needs steering joints (limited revolute joints named "...steer..." or "...corner...", or vertical ones with a wheel below)' };
    const steerOf = (w: JointSpec): JointSpec | undefined => above(w).find((j) => steering.includes(j));
    const used = steering.filter((s) => wheels.some((w) => steerOf(w) === s));
    if (used.length === 0) return { reason: 'no wheel hangs below a steering joint' };
    return {
      reason: '',
      controller: {
        type: 'all-wheel-steer',
        wheels: wheels.map((w) => {
          const st = steerOf(w);
          return st ? { drive: w.name, steer: st.name } : { drive: w.name };
        }),
        wheelRadius: radii[0] as number,
        maxSpeed: INFERRED_MAX_SPEED,
        maxSteer: steerLimit(used),
        maxAcceleration: INFERRED_MAX_ACCELERATION,
        maxYawAcceleration: INFERRED_MAX_YAW_ACCELERATION,
        maxTorque,
        ...frame,
      },
    };
  }
  if (chosen === 'ackermann') {
    if (steering.length !== 2) return { reason: `found ${steering.length} steering joint(s); Ackermann needs exactly 2` };
    const [a, b] = steering;
    if (side(a) === side(b) || side(a) === 0 || side(b) === 0) return { reason: 'the two steering joints are not one left and one right' };
    const [sl, sr] = side(a) > 0 ? [a, b] : [b, a];
    const steered = new Set(steering.map((s) => s.bodyB));
    const drive = wheels.filter((w) => !steered.has(w.bodyA ?? ''));
    const driveLeft = drive.filter((w) => side(w) > 0);
    const driveRight = drive.filter((w) => side(w) < 0);
    if (driveLeft.length === 0 || driveRight.length === 0) return { reason: 'no rear (unsteered) wheel on each side to drive' };
    const pl = local(sl.anchor ?? [0, 0, 0]), pr = local(sr.anchor ?? [0, 0, 0]);
    const rearX = drive.reduce((s, w) => s + local(w.anchor ?? [0, 0, 0])[0], 0) / drive.length;
    const maxSteer = steerLimit([sl, sr]);
    const r = radii[wheels.indexOf(driveLeft[0])] as number;
    return {
      reason: '',
      controller: {
        type: 'ackermann',
        driveLeft: driveLeft.map((j) => j.name),
        driveRight: driveRight.map((j) => j.name),
        steerLeft: sl.name,
        steerRight: sr.name,
        wheelRadius: r,
        wheelbase: Math.abs((pl[0] + pr[0]) / 2 - rearX),
        track: Math.abs(pl[1] - pr[1]),
        maxSpeed: INFERRED_MAX_SPEED,
        maxSteer,
        maxAcceleration: INFERRED_MAX_ACCELERATION,
        maxTorque,
        ...frame,
      },
    };
  }
  const left = wheels.filter((w) => side(w) > 0);
  const right = wheels.filter((w) => side(w) < 0);
  if (left.length === 0 || right.length === 0 || left.length + right.length !== wheels.length) return { reason: 'the wheels are not all clearly left or right of the base' };
  const meanY = (js: JointSpec[]): number => js.reduce((s, j) => s + local(j.anchor ?? [0, 0, 0])[1], 0) / js.length;
  return {
    reason: '',
    controller: {
      type: chosen === 'differential' ? 'differential' : 'skid-steer',
      left: left.map((j) => j.name),
      right: right.map((j) => j.name),
      wheelRadius: radii[0] as number,
      track: meanY(left) - meanY(right),
      maxSpeed: INFERRED_MAX_SPEED,
      maxYawRate: INFERRED_MAX_YAW_RATE,
      maxAcceleration: INFERRED_MAX_ACCELERATION,
      maxYawAcceleration: INFERRED_MAX_YAW_ACCELERATION,
      maxTorque,
      ...frame,
    },
  };
}

const FRONT = /front|fore|(^|_)f(_|$)/i;
const BACK = /back|rear|aft|(^|_)b(_|$)/i;
const LEFT = /left|(^|_)l(_|$)/i;
const RIGHT = /right|(^|_)r(_|$)/i;

/**
 * [rad] The robot's forward direction in the base frame (ControllerSpec.forwardYaw): 0 (+x, as
 * REP-103 has it) unless the wheels' axles lie along the base's x more than along its y (a robot
 * modelled driving along y, as the Curiosity model of theconstructcore, whose wheels spin about
 * x). Then forward is +y or −y: toward the wheels named front from those named back or rear, else
 * the left wheels' side turned a quarter clockwise, else +y.
 */
function inferForwardYaw(wheels: JointSpec[], local: (p: Vec3Spec) => [number, number, number], direction: (d: Vec3Spec) => [number, number, number]): number {
  let ax = 0, ay = 0;
  for (const w of wheels) {
    const a = direction(w.axis ?? [0, 0, 1]);
    ax += Math.abs(a[0]);
    ay += Math.abs(a[1]);
  }
  if (ay >= ax) return 0;
  const mean = (js: JointSpec[], k: 0 | 1): number => js.reduce((s, j) => s + local(j.anchor ?? [0, 0, 0])[k], 0) / js.length;
  const named = (re: RegExp, not: RegExp): JointSpec[] => wheels.filter((w) => re.test(w.name.replace(/_?joint$/i, '')) && !not.test(w.name.replace(/_?joint$/i, '')));
  const front = named(FRONT, BACK), back = named(BACK, FRONT);
  if (front.length > 0 && back.length > 0) {
    const d = mean(front, 1) - mean(back, 1);
    if (Math.abs(d) > SIDE_TOLERANCE) return d > 0 ? Math.PI / 2 : -Math.PI / 2;
  }
  const left = named(LEFT, RIGHT), right = named(RIGHT, LEFT);
  if (left.length > 0 && right.length > 0) {
    const d = mean(left, 0) - mean(right, 0);
    // left along +x: forward is −y
    if (Math.abs(d) > SIDE_TOLERANCE) return d > 0 ? -Math.PI / 2 : Math.PI / 2;
  }
  return Math.PI / 2;
}
