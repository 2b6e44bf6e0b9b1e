/**
 * Synthetic runs for the recording tests and the recording bench (no dynamics involved):
 *  - `randomFrame`: seeded random bodies and contacts, any counts (round-trip tests);
 *  - `RoverRun`: a six-wheeled rover towing a two-wheeled trailer (10 bodies) rolling over a
 *    wavy terrain at 240 Hz with ~30 contacts a step, every number computed in float64 with
 *    solver-like noise, so its bytes compress about as real frames do (bench: bytes per minute).
 */
import { Rng } from '../../../sim/math/random';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE, CONTACT_KIND_BODY_PAIR } from '../../../sim/dynamics/frame-layout';
import { makeFrame, type FrameData } from '../../../sim/record/format';
import type { RecordedBody } from '../../../sim/record/foxglove';
import type { InlineTerrainSpec } from '../../../sim/dynamics/spec';

/** Fills `f` with `bodies` random bodies and `contacts` random contacts at `step`. */
export function randomFrame(rng: Rng, step: number, dt: number, bodies: number, contacts: number): FrameData {
  const f = makeFrame(bodies, contacts);
  f.step = step;
  f.time = step * dt;
  f.bodyCount = bodies;
  f.contactCount = contacts;
  for (let i = 0; i < bodies * POSE_STRIDE; i++) f.poses[i] = rng.range(-50, 50);
  for (let i = 0; i < bodies * VELOCITY_STRIDE; i++) f.velocities[i] = rng.gaussian() * 3;
  for (let i = 0; i < contacts * CONTACT_STRIDE; i++) f.contacts[i] = rng.range(-10, 10);
  for (let k = 0; k < contacts; k++) {
    const o = k * CONTACT_INFO_STRIDE;
    f.contactInfo[o] = rng.int(0, 9);
    f.contactInfo[o + 1] = rng.int(0, Math.max(0, bodies - 1));
    f.contactInfo[o + 2] = rng.int(-1, Math.max(0, bodies - 1));
    f.contactInfo[o + 3] = rng.int(-5, 5000);
    f.contactInfo[o + 4] = rng.int(-5, 5000);
  }
  return f;
}

export const ROVER_WHEEL_RADIUS = 0.3;
const WHEEL_WIDTH = 0.2;

/** Bodies of the synthetic rover: chassis, 6 wheels, trailer, 2 trailer wheels. */
export function roverBodies(): { bodies: RecordedBody[]; wheels: number[] } {
  const wheel = (name: string): RecordedBody => ({ name, shape: { type: 'cylinder', radius: ROVER_WHEEL_RADIUS, height: WHEEL_WIDTH } });
  const bodies: RecordedBody[] = [
    { name: 'chassis', shape: { type: 'box', halfExtents: [0.9, 0.5, 0.2] } },
    wheel('wheel_fl'),
    wheel('wheel_ml'),
    wheel('wheel_rl'),
    wheel('wheel_fr'),
    wheel('wheel_mr'),
    wheel('wheel_rr'),
    { name: 'trailer', shape: { type: 'compound', children: [{ shape: { type: 'box', halfExtents: [0.6, 0.45, 0.15] }, position: [0, 0, 0.1] }] } },
    wheel('trailer_l'),
    wheel('trailer_r'),
  ];
  return { bodies, wheels: [1, 2, 3, 4, 5, 6, 8, 9] };
}

/** Terrain of the synthetic run: z = 0.15 sin(0.4 x) + 0.1 sin(0.25 y), 0.1 m cells. */
export function roverTerrain(cols = 257, rows = 65): InlineTerrainSpec {
  const heights = new Float64Array(cols * rows);
  const x0 = -5;
  const y0 = -3.2;
  for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) heights[j * cols + i] = terrainZ(x0 + i * 0.1, y0 + j * 0.1);
  return { cols, rows, dx: 0.1, dy: 0.1, x0, y0, heights };
}

function terrainZ(x: number, y: number): number {
  return 0.15 * Math.sin(0.4 * x) + 0.1 * Math.sin(0.25 * y);
}

/**
 * The rover run, one frame per `next()`: it drives at ~1.5 m/s with a slow weave; wheels get 4
 * contacts each (trailer wheels 3), plus an occasional trailer–chassis body contact.
 */
export class RoverRun {
  readonly frame: FrameData;
  private readonly rng: Rng;
  private step = -1;
  private x = 0;
  private y = 0;
  private yaw = 0;
  private wheelAngle = 0;
  private readonly dt: number;
  // Wheel offsets in the chassis frame (x, y), then trailer wheels relative to the trailer.
  private static readonly WHEELS: [number, number][] = [
    [0.7, 0.6],
    [0, 0.6],
    [-0.7, 0.6],
    [0.7, -0.6],
    [0, -0.6],
    [-0.7, -0.6],
  ];

  constructor(seed: number, dt = 1 / 240) {
    this.rng = new Rng(seed);
    this.dt = dt;
    this.frame = makeFrame(10, 40);
  }

  next(): FrameData {
    const f = this.frame;
    const r = this.rng;
    this.step++;
    const t = this.step * this.dt;
    const speed = 1.5 + 0.3 * Math.sin(0.1 * t);
    const yawRate = 0.2 * Math.sin(0.05 * t);
    this.yaw += yawRate * this.dt;
    this.x += speed * Math.cos(this.yaw) * this.dt;
    this.y += speed * Math.sin(this.yaw) * this.dt;
    this.wheelAngle += (speed / ROVER_WHEEL_RADIUS) * this.dt;
    f.step = this.step;
    f.time = t;
    f.bodyCount = 10;
    let nc = 0;
    const cy = Math.cos(this.yaw);
    const sy = Math.sin(this.yaw);
    const setBody = (b: number, px: number, py: number, pz: number, yaw: number, spin: number, vx: number, vy: number, vz: number, wz: number, wSpin: number): void => {
      // q = yaw about z, then (for wheels) a quarter turn about x so the cylinder axis is lateral, then spin.
      const hy = yaw / 2;
      let qx = 0;
      let qy = 0;
      let qz = Math.sin(hy);
      let qw = Math.cos(hy);
      if (spin !== null && !Number.isNaN(spin)) {
        // wheel: axis along world-lateral; compose with a rotation of π/2 about x and spin about local z.
        const a = Math.SQRT1_2;
        const [x1, y1, z1, w1] = mul(qx, qy, qz, qw, a, 0, 0, a);
        const hs = spin / 2;
        [qx, qy, qz, qw] = mul(x1, y1, z1, w1, 0, 0, Math.sin(hs), Math.cos(hs));
      }
      const o = b * POSE_STRIDE;
      f.poses[o] = px;
      f.poses[o + 1] = py;
      f.poses[o + 2] = pz;
      f.poses[o + 3] = qx;
      f.poses[o + 4] = qy;
      f.poses[o + 5] = qz;
      f.poses[o + 6] = qw;
      const v = b * VELOCITY_STRIDE;
      f.velocities[v] = vx + 1e-4 * r.gaussian();
      f.velocities[v + 1] = vy + 1e-4 * r.gaussian();
      f.velocities[v + 2] = vz + 1e-4 * r.gaussian();
      f.velocities[v + 3] = wSpin * -sy + 1e-4 * r.gaussian();
      f.velocities[v + 4] = wSpin * cy + 1e-4 * r.gaussian();
      f.velocities[v + 5] = wz + 1e-4 * r.gaussian();
    };
    const addContact = (body: number, px: number, py: number, depth: number, kind: number, other: number): void => {
      const o = nc * CONTACT_STRIDE;
      const pz = terrainZ(px, py);
      // normal = normalize(−∂z/∂x, −∂z/∂y, 1)
      const gx = 0.06 * Math.cos(0.4 * px);
      const gy = 0.025 * Math.cos(0.25 * py);
      const inv = 1 / Math.sqrt(gx * gx + gy * gy + 1);
      f.contacts[o] = px;
      f.contacts[o + 1] = py;
      f.contacts[o + 2] = pz;
      f.contacts[o + 3] = -gx * inv;
      f.contacts[o + 4] = -gy * inv;
      f.contacts[o + 5] = inv;
      f.contacts[o + 6] = depth;
      f.contacts[o + 7] = (250 / 4) * this.dt * (1 + 0.2 * r.gaussian());
      f.contacts[o + 8] = 0.3 * f.contacts[o + 7] * r.gaussian();
      f.contacts[o + 9] = 0.1 * f.contacts[o + 7] * r.gaussian();
      const i = nc * CONTACT_INFO_STRIDE;
      f.contactInfo[i] = kind;
      f.contactInfo[i + 1] = body;
      f.contactInfo[i + 2] = other;
      f.contactInfo[i + 3] = Math.floor((px + 5) / 0.1);
      f.contactInfo[i + 4] = Math.floor((py + 3.2) / 0.1);
      nc++;
    };
    const z0 = terrainZ(this.x, this.y) + ROVER_WHEEL_RADIUS + 0.25;
    setBody(0, this.x, this.y, z0, this.yaw, NaN, speed * cy, speed * sy, 0, yawRate, 0);
    const wheelBody = (b: number, wx: number, wy: number, points: number): void => {
      const px = this.x + wx * cy - wy * sy;
      const py = this.y + wx * sy + wy * cy;
      const pz = terrainZ(px, py) + ROVER_WHEEL_RADIUS - 0.004;
      setBody(b, px, py, pz, this.yaw, this.wheelAngle, speed * cy, speed * sy, 0, yawRate, speed / ROVER_WHEEL_RADIUS);
      // Lift-off now and then: the front-left wheel leaves the ground for 0.2 s every 10 s.
      if (b === 1 && this.step % 2400 < 48) return;
      for (let k = 0; k < points; k++) {
        const lat = (k / (points - 1) - 0.5) * WHEEL_WIDTH * 0.9;
        const lon = (k % 2 === 0 ? 1 : -1) * 0.02;
        addContact(b, px + lon * cy - lat * sy, py + lon * sy + lat * cy, Math.max(0, 0.004 + 0.001 * r.gaussian()), k % 3 === 0 ? 2 : 0, -1);
      }
    };
    RoverRun.WHEELS.forEach(([wx, wy], k) => wheelBody(1 + k, wx, wy, 4));
    const tx = this.x - 1.9 * cy;
    const ty = this.y - 1.9 * sy;
    setBody(7, tx, ty, terrainZ(tx, ty) + ROVER_WHEEL_RADIUS + 0.15, this.yaw, NaN, speed * cy, speed * sy, 0, yawRate, 0);
    const trailerWheel = (b: number, wy: number): void => {
      const px = tx - wy * sy;
      const py = ty + wy * cy;
      setBody(b, px, py, terrainZ(px, py) + ROVER_WHEEL_RADIUS - 0.004, this.yaw, this.wheelAngle, speed * cy, speed * sy, 0, yawRate, speed / ROVER_WHEEL_RADIUS);
      for (let k = 0; k < 3; k++) addContact(b, px + (k - 1) * 0.02 * cy, py + (k - 1) * 0.02 * sy, Math.max(0, 0.004 + 0.001 * r.gaussian()), 1, -1);
    };
    trailerWheel(8, 0.55);
    trailerWheel(9, -0.55);
    // Hitch contact between trailer and chassis, now and then.
    if (this.step % 600 < 30) addContact(7, this.x - 1.0 * cy, this.y - 1.0 * sy, 0.002, CONTACT_KIND_BODY_PAIR, 0);
    f.contactCount = nc;
    return f;
  }
}

function mul(ax: number, ay: number, az: number, aw: number, bx: number, by: number, bz: number, bw: number): [number, number, number, number] {
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}

/**
 * Frames of a world where some bodies rest: contacts in bodyA order (as the dynamics world
 * reports them), bodies [0, moving) change at every step, the others rest for seeded stretches
 * (pose, velocity and contact block bit-identical to the step before) and then move again; a
 * moving body's block may grow, shrink or empty. Some numbers alternate between 0 and −0 (equal
 * as numbers, different bits: a delta must keep them); the last body never moves except for such
 * a flip in its first velocity number every 7 steps, and the one before it keeps still while its
 * contact block swaps between two of the same size. Returns fresh objects per step.
 */
export function evolvingFrames(rng: Rng, steps: number, dt: number, bodies: number, moving: number, firstStep = 0): FrameData[] {
  const poses = new Float64Array(bodies * POSE_STRIDE).map(() => rng.range(-5, 5));
  const vel = new Float64Array(bodies * VELOCITY_STRIDE).map(() => rng.gaussian());
  const blocks: { c: number[]; i: number[] }[] = [];
  const restUntil = new Int32Array(bodies);
  const newBlock = (a: number) => {
    const n = rng.int(0, 4);
    const c: number[] = [];
    const i: number[] = [];
    for (let k = 0; k < n; k++) {
      for (let j = 0; j < CONTACT_STRIDE; j++) c.push(rng.next() < 0.1 ? (rng.next() < 0.5 ? 0 : -0) : rng.range(-3, 3));
      i.push(rng.int(0, 4), a, rng.int(-1, bodies - 1), rng.int(0, 500), rng.int(0, 500));
    }
    return { c, i };
  };
  for (let a = 0; a < bodies; a++) blocks.push(newBlock(a));
  let swapA = newBlock(bodies - 2);
  while (swapA.i.length === 0) swapA = newBlock(bodies - 2);
  const swapB = { c: swapA.c.map((x) => x + 1), i: [...swapA.i] };
  const out: FrameData[] = [];
  for (let s = firstStep; s < firstStep + steps; s++) {
    // The last body stays put; only its first velocity number flips between 0 and −0 now and then.
    const last = (bodies - 1) * VELOCITY_STRIDE;
    if (s === firstStep) vel.fill(0, last, last + VELOCITY_STRIDE);
    else if (s % 7 === 0) vel[last] = Object.is(vel[last], 0) ? -0 : 0;
    // The body before it stays put too; its contact block swaps between two blocks of one size
    // every 5 steps (A, B, A, …: a delta must compare with the frame before, not an older one).
    if (s % 5 === 0) blocks[bodies - 2] = (s / 5) % 2 === 0 ? swapA : swapB;
    for (let b = 0; b < bodies - 2; b++) {
      const rests = b >= moving && s < restUntil[b];
      if (rests) continue;
      if (b >= moving && rng.next() < 0.05) restUntil[b] = s + rng.int(5, 80);
      for (let j = 0; j < POSE_STRIDE; j++) poses[b * POSE_STRIDE + j] += rng.range(-0.01, 0.01);
      for (let j = 0; j < VELOCITY_STRIDE; j++) vel[b * VELOCITY_STRIDE + j] = rng.next() < 0.05 ? (Object.is(vel[b * VELOCITY_STRIDE + j], 0) ? -0 : 0) : rng.gaussian();
      if (rng.next() < 0.7) blocks[b] = newBlock(b);
    }
    const C = blocks.reduce((n, x) => n + x.i.length / CONTACT_INFO_STRIDE, 0);
    const f = makeFrame(bodies, C);
    f.step = s;
    f.time = s * dt;
    f.bodyCount = bodies;
    f.contactCount = C;
    f.poses.set(poses);
    f.velocities.set(vel);
    let k = 0;
    for (const x of blocks) {
      f.contacts.set(x.c, k * CONTACT_STRIDE);
      f.contactInfo.set(x.i, k * CONTACT_INFO_STRIDE);
      k += x.i.length / CONTACT_INFO_STRIDE;
    }
    out.push(f);
  }
  return out;
}
