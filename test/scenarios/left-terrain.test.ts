/**
 * Issue #17: a robot that drives off the terrain pauses the world with "body X left the terrain
 * at x, y (step N)" instead of falling for minutes into a speed fault. The rover (built-in
 * skid-steer, scenario v2 with an inline terrain) drives off a 4 m × 3 m flat terrain; the step
 * and body are checked against a re-run that tests every robot body's origin against the grid
 * bounds after each step (a brute-force check that does not use Heightfield.contains). Also: the
 * service's frame carries the message (the GUI shows frame.fault as "simulation paused: …"),
 * the recording gets it as a fault event, and bodies that are not the robot's are not checked.
 */
import { describe, expect, it } from 'vitest';
import { parseScenarioFile } from '../../sim/scenario/scenario-v2';
import { SimWorld } from '../../sim/app/sim-world';
import { Heightfield } from '../../sim/terrain/heightfield';
import { createDefaultService } from '../../sim/app/default-service';
import { bytesSource, MemorySink } from '../../sim/record/io';
import { RecordingReader } from '../../sim/record/reader';
import { loadCodecs } from '../../sim/record/codecs';
import { makeWorld, flat } from './dynamics/helpers';

/** Flat terrain x 0..4 m, y −1.5..1.5 m (41 × 31 vertices at 0.1 m). */
const TERRAIN = { cols: 41, rows: 31, dx: 0.1, dy: 0.1, x0: 0, y0: -1.5, heights: new Array(41 * 31).fill(0) };
const X1 = 4, Y0 = -1.5, Y1 = 1.5;

function scenario(position: [number, number], yaw: number, script: { t: number; throttle: number; steer: number }[]) {
  return { format: 'terrawheel-scenario', version: 2, name: 'edge', terrain: TERRAIN, dt: 0.005, robot: { type: 'skid-steer', position, yaw }, script };
}

function build(raw: unknown): SimWorld {
  const p = parseScenarioFile(raw);
  return SimWorld.create(p, Heightfield.fromArray((p.terrain as { inline: typeof TERRAIN }).inline));
}

/** First step after which some robot body's origin is outside [0, 4] × [−1.5, 1.5], and that body, by stepping a fresh world with the check switched off. */
function firstStepOutside(raw: unknown, maxSteps: number): { step: number; body: string; x: number; y: number } {
  const w = build(raw);
  const e = w.engine;
  const robot = w.spec.robot!.bodies.map((b) => e.bodies.indexOf(b.name));
  for (let s = 1; s <= maxSteps; s++) {
    e.step(1);
    if (e.fault?.kind === 'left-terrain') e.fault = null; // the oracle's world keeps going
    for (const b of robot) {
      const x = e.bodies.pos[3 * b], y = e.bodies.pos[3 * b + 1];
      if (x < 0 || x > X1 || y < Y0 || y > Y1) return { step: s, body: e.bodies.names[b], x, y };
    }
  }
  throw new Error(`no robot body left the terrain in ${maxSteps} steps`);
}

describe('a robot that leaves the terrain pauses the world (issue #17)', () => {
  it.each([
    ['forward over the +x edge', [2, 0] as [number, number], 0, 1, 0],
    ['backward over the −x edge', [2, 0] as [number, number], 0, -1, 0],
    ['sideways (yaw 90°) over the +y edge', [2, 0.5] as [number, number], Math.PI / 2, 1, 0],
  ])('%s: fault at the first step a robot body is outside, with body, x, y and step', (_name, start, yaw, throttle, steer) => {
    const raw = scenario(start, yaw, [{ t: 0, throttle, steer }]);
    const expected = firstStepOutside(raw, 2000);
    const w = build(raw);
    w.step(2000);
    const f = w.engine.fault!;
    expect(f).not.toBeNull();
    expect(f.kind).toBe('left-terrain');
    expect(f.step).toBe(expected.step);
    expect(f.body).toBe(expected.body);
    expect(f.x).toBe(expected.x);
    expect(f.y).toBe(expected.y);
    expect(f.reason).toBe(
      `body "${expected.body}" left the terrain at x ${expected.x.toFixed(3)}, y ${expected.y.toFixed(3)} m (step ${expected.step}): the terrain spans x 0..4 m, y -1.5..1.5 m; the world is paused at step ${expected.step}`,
    );
    expect(w.fault).toBe(f.reason);
    // paused after the step that left (not rolled back): the body is past the edge and stays there
    expect(w.stepCount).toBe(expected.step);
    const hash = w.engine.stateHash();
    w.step(100);
    expect(w.stepCount).toBe(expected.step);
    expect(w.engine.stateHash()).toBe(hash);
    // within a step's travel of the edge (2 m/s top speed: 1 cm per 5 ms step)
    const over = Math.max(-expected.x, expected.x - X1, Y0 - expected.y, expected.y - Y1);
    expect(over).toBeGreaterThan(0);
    expect(over).toBeLessThan(0.02);
  });

  it('the service frame carries the message the GUI shows, and a recording gets it as a fault event', async () => {
    const service = createDefaultService();
    await service.load({ scenario: scenario([2, 0], 0, [{ t: 0, throttle: 1, steer: 0 }]), terrainSidecar: null, terrainData: new Uint8Array(0) });
    const sink = new MemorySink();
    await service.startRecordingTo(sink, {});
    await service.step(2000);
    const frame = await service.latestFrame();
    expect(frame.fault).toMatch(/^body "rover\/wheel_f[lr]" left the terrain at x 4\.0\d\d, y -?0\.\d{3} m \(step \d+\)/);
    const step = Number(/\(step (\d+)\)/.exec(frame.fault!)![1]);
    expect(frame.step).toBe(step);
    await service.stopRecording();
    service.dispose();
    const reader = await RecordingReader.open(bytesSource(sink.bytes()), { codecs: await loadCodecs() });
    expect(await reader.events()).toEqual([{ step, kind: 'fault', message: frame.fault }]);
    expect(reader.info.lastStep).toBe(step);
  });

  it('bodies that are not the robot\'s may leave the terrain (no pause): a ball rolled off a small map', () => {
    const w = makeWorld(flat(21, 0.1), [{ name: 'ball', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [0.9, 0, 0.1], linearVelocity: [2, 0, 0] }]);
    w.step(240);
    expect(w.bodies.pos[0]).toBeGreaterThan(2);
    expect(w.fault).toBeNull();
  });
});
