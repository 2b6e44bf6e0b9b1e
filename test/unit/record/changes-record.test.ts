/**
 * Changes records (sim/record/capture.ts): after a step whose changes the world certifies
 * (`DynamicsWorld.lastStepChanges`), the capture copies only the bodies the step may have moved
 * and the contacts that are not carried over from a sleeping pair; the encoder's FrameDecoder
 * rebuilds the rest from the frame before.
 *  - On the vehicle bench scene (100 rocks that fall, sleep and are pushed by the rover) plus a
 *    kinematic pusher, with a restoreState back in time, one to an edited state of the same step
 *    count, and a rock woken by hand mid-run, every
 *    step's decoded frame equals the world's own report (`frame()`) bit for bit, and most steps
 *    are changes records.
 *  - The same run written from changes records and from full records only gives byte-identical
 *    files (the writer's change hint does not change what it writes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import { robotDriveController } from '../../../sim/robot/controllers/world-drive';
import type { DynamicsWorld } from '../../../sim/dynamics/world';
import { applyBatch, FrameDecoder, keyframeSlots, newBatch, REC_CHANGES, REC_FRAME, StepCapture, type CaptureBatch } from '../../../sim/record/capture';
import { loadCodecs, type RecordingCodecs } from '../../../sim/record/codecs';
import { MemorySink } from '../../../sim/record/io';
import { RecordingWriter, type RecordingHeader } from '../../../sim/record/writer';
import { BUILD_ID, stateBytes } from '../../../sim/app/record-session';
import { buildVehicleScene, vehicleSceneWorldSpec, wheelLayout, type VehicleScene } from '../../bench/vehicle/scene';

const DT = 1 / 240;
let scene: VehicleScene;
let codecs: RecordingCodecs;

/** The bench scene with a kinematic box sliding through the rock strip. */
function makeWorld(): DynamicsWorld {
  const spec = vehicleSceneWorldSpec(scene, 6, { dt: DT });
  const r = scene.rocks[Math.floor(scene.rocks.length / 2)];
  spec.bodies.push({
    name: 'pusher', type: 'kinematic', shape: { type: 'box', halfExtents: [0.3, 0.3, 0.3] },
    position: [r.position[0] - 1.5, r.position[1], r.position[2]], linearVelocity: [0.6, 0, 0],
  });
  return createDynamicsWorld(spec, scene.terrain, robotDriveController);
}

function header(world: DynamicsWorld): RecordingHeader {
  const bodies = world.spec.bodies.map((b) => ({ name: b.name, shape: b.shape }));
  const names = bodies.map((b) => b.name);
  const t = scene.terrain;
  return {
    scenario: { name: 'changes records' }, scenarioName: 'changes records', buildId: BUILD_ID, createdAt: '2026-11-24T00:00:00.000Z', dt: DT, bodies,
    wheels: wheelLayout(6).map((w) => names.indexOf(w.name)),
    terrain: { cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0, y0: t.y0, heights: t.heights },
  };
}

/** Counts of Object.is mismatches between two arrays (and a length mismatch as one more). */
function mismatches(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = a.length === b.length ? 0 : 1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

/** Numbers before the body positions in a saved world state (world.ts saveState layout). */
const STATE_HEADER = 12;

/**
 * Steps the world `steps` times, going back to the state of step `backFrom` at step `backAt`,
 * restoring at step `liftAt` its own state with one sleeping rock 1 cm higher (same step count:
 * only the restore itself tells the capture that the state is not the one the last step left),
 * and waking one sleeping rock by hand at step `wakeAt`; `each` runs after every step.
 */
function run(world: DynamicsWorld, steps: number, each: () => void, goBack = true): { woke: boolean } {
  const backFrom = 600, backAt = goBack ? 900 : -1, liftAt = 1000, wakeAt = 1200;
  let saved: Float64Array | null = null;
  let woke = false;
  for (let s = 0; s < steps; s++) {
    if (s === backFrom) saved = world.saveState();
    if (s === backAt) world.restoreState(saved!);
    if (s === liftAt) {
      const b = world.bodies.names.findIndex((n, i) => n.startsWith('rock') && world.bodies.awake[i] === 0);
      const st = world.saveState();
      st[STATE_HEADER + 3 * b + 2] += 0.01;
      world.restoreState(st);
    }
    if (s === wakeAt) {
      const b = world.bodies.names.findIndex((n, i) => n.startsWith('rock') && world.bodies.awake[i] === 0);
      if (b >= 0) {
        world.wakeBody(b);
        woke = true;
      }
    }
    world.step(1);
    each();
  }
  return { woke };
}

describe('changes records', () => {
  beforeAll(async () => {
    scene = buildVehicleScene();
    codecs = await loadCodecs();
  });

  it('decode to the world report bit for bit at every step, through sleep, wake, a kinematic body and a restore', () => {
    const world = makeWorld();
    const cap = new StepCapture();
    const batch: CaptureBatch = newBatch(4 << 20);
    const dec = new FrameDecoder();
    const counts = { full: 0, changes: 0 };
    const fullAt: number[] = [];
    let bad = 0, maxBodies = 0, sumBodies = 0, sumNew = 0, contacts = 0;
    const { woke } = run(world, 1500, () => {
      cap.attach(batch);
      const slots = cap.planFrame(world.stepCount, world);
      cap.frame(world.stepCount, world);
      const b = cap.detach()!;
      expect(b.used).toBe(8 * slots);
      const f = new Float64Array(b.buf, 0, b.used / 8);
      if (f[0] === REC_CHANGES) {
        counts.changes++;
        maxBodies = Math.max(maxBodies, f[6]);
        sumBodies += f[6];
        sumNew += f[7];
      } else {
        expect(f[0]).toBe(REC_FRAME);
        counts.full++;
        fullAt.push(world.stepCount);
      }
      expect(dec.decode(f, new Int32Array(b.buf), new Uint8Array(b.buf), 0) * 8).toBe(b.used);
      const r = world.frame();
      const got = dec.frame;
      expect([got.step, got.time, got.bodyCount, got.contactCount]).toEqual([world.stepCount, world.time, world.bodies.count, r.contactCount]);
      contacts += r.contactCount;
      bad += mismatches(got.poses, r.poses) + mismatches(got.velocities, r.velocities) + mismatches(got.contacts, r.contacts) + mismatches(got.contactInfo, r.contactInfo);
    });
    expect(bad).toBe(0);
    expect(woke).toBe(true);
    // full records: the first step, the step after the restore (601), and steps where every body
    // moves (the rocks falling at the start) so a changes record would be no smaller
    expect(fullAt[0]).toBe(1);
    expect(fullAt).toContain(601);
    expect(fullAt).toContain(701); // the step after the lift (the restore went back 300 steps)
    expect(fullAt.filter((s) => s > 400 && s !== 601 && s !== 701)).toEqual([]);
    expect(counts.changes).toBeGreaterThan(1200);
    // they are small: the rocks sleep (about 13 of 108 bodies and a tenth of the contacts per step)
    expect(sumBodies / counts.changes).toBeLessThan(0.3 * world.bodies.count);
    expect(sumNew).toBeLessThan(0.35 * contacts);
    expect(maxBodies).toBeGreaterThan(world.bodies.count / 2); // and busy steps too, while the rocks fall
  });

  it('give the same file bytes as full records', async () => {
    const files: Uint8Array[] = [];
    for (const changes of [true, false]) {
      const world = makeWorld();
      const sink = new MemorySink();
      const writer = await RecordingWriter.create(sink, header(world), { codecs, keyframeInterval: 120, chunkBytes: 64 * 1024 });
      const cap = new StepCapture({ changes });
      const batch = newBatch(4 << 20);
      const dec = new FrameDecoder();
      let frames = 0;
      run(world, 1300, () => {
        cap.attach(batch);
        const step = world.stepCount;
        if (step % 120 === 0) {
          const bytes = stateBytes(world.saveState());
          expect(cap.fits(keyframeSlots(bytes.length))).toBe(true);
          cap.keyframe(step, bytes);
        }
        cap.planFrame(step, world);
        cap.frame(step, world);
        applyBatch(writer, cap.detach()!, dec);
        frames++;
      }, false);
      await writer.close();
      expect(frames).toBe(1300);
      files.push(sink.bytes());
    }
    expect(files[0].length).toBeGreaterThan(100_000);
    expect(Buffer.compare(Buffer.from(files[0]), Buffer.from(files[1]))).toBe(0);
  });
});
