/**
 * A fault pauses the world (issue #30 item 1): the service's clock stops, the frame names the
 * faulting step, a running recording holds the fault as an event and stops growing, and stepBack
 * restores a state from before the faulting step (rewind points live; the recording's file ends
 * with the fault) from which the world runs on.
 */
import { describe, expect, it } from 'vitest';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { REWIND_MARGIN_S, SimServiceImpl } from '../../../sim/app/service';
import { MemorySink, bytesSource } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { loadCodecs } from '../../../sim/record/codecs';
import { scanTimelineEvents } from '../../../sim/record/events';

/** 10 m × 10 m flat plane at 0.1 m. */
const plane = (): Heightfield => Heightfield.fromArray({ cols: 101, rows: 101, dx: 0.1, dy: 0.1, heights: new Float64Array(101 * 101) });

const DT = 0.005;
/** Starts 3.5 m from the +x edge, facing it. */
const edgeScenario = { format: 'terrawheel-scenario', version: 1, name: 'edge', terrain: 't.json', start: { position: [6.5, 5], yaw: 0 }, dt: DT };

async function faultedService(): Promise<{ svc: SimServiceImpl; faultStep: number }> {
  const svc = new SimServiceImpl({ decodeTerrain: () => plane() });
  await svc.load({ scenario: edgeScenario, terrainSidecar: {}, terrainData: new Uint8Array(1) });
  svc.setDrive({ throttle: 1, steer: 0 });
  for (let k = 0; k < 100 && (await svc.latestFrame()).fault === null; k++) await svc.step(50);
  const f = await svc.latestFrame();
  expect(f.fault).toMatch(/left the terrain|outside/);
  return { svc, faultStep: f.faultStep as number };
}

describe('fault pause and step back', () => {
  it('a fault names its step, and the world steps no further', async () => {
    const { svc, faultStep } = await faultedService();
    const f = await svc.latestFrame();
    expect(f.faultStep).toBe(faultStep);
    expect(f.step).toBe(faultStep); // a left-terrain fault: the step stands
    await svc.step(20);
    expect((await svc.latestFrame()).step).toBe(faultStep);
    svc.dispose();
  });

  it('stepBack restores a state at least the margin before the fault, paused, drive zero; the world runs on', async () => {
    const { svc, faultStep } = await faultedService();
    const back = await svc.stepBack();
    expect(back.fault).toBeNull();
    expect(back.faultStep).toBeUndefined();
    expect(back.step).toBeLessThanOrEqual(faultStep - Math.round(REWIND_MARGIN_S / DT));
    expect(back.step).toBeGreaterThan(0);
    expect(svc.getWorld()!.getDrive()).toEqual({ throttle: 0, steer: 0 });
    // the chassis is back on the map, and reversing away from the edge runs without a fault
    svc.setDrive({ throttle: -1, steer: 0 });
    await svc.step(200);
    const f = await svc.latestFrame();
    expect(f.fault).toBeNull();
    expect(f.step).toBe(back.step + 200);
    await expect(svc.stepBack()).rejects.toThrow(/no fault/);
    svc.dispose();
  });

  it('a recording holds the fault as an event, stops growing over the frozen world, and is closed by stepBack', async () => {
    const svc = new SimServiceImpl({ decodeTerrain: () => plane() });
    await svc.load({ scenario: edgeScenario, terrainSidecar: {}, terrainData: new Uint8Array(1) });
    const sink = new MemorySink();
    await svc.startRecordingTo(sink, { keyframeInterval: 40 });
    svc.setDrive({ throttle: 1, steer: 0 });
    for (let k = 0; k < 100 && (await svc.latestFrame()).fault === null; k++) await svc.step(50);
    const faultStep = (await svc.latestFrame()).faultStep as number;
    const at = await svc.recordingStatus();
    await svc.step(100);
    expect((await svc.recordingStatus()).lastStep).toBe(at.lastStep); // nothing recorded over the frozen world
    expect(at.lastStep).toBe(faultStep);
    expect(at.events).toBe(1);
    await svc.stepBack();
    expect((await svc.recordingStatus()).active).toBe(false);
    expect(sink.closed).toBe(true);
    const reader = await RecordingReader.open(bytesSource(sink.bytes()), { codecs: await loadCodecs() });
    expect(reader.info.lastStep).toBe(faultStep);
    const events = await scanTimelineEvents(reader);
    expect(events.filter((e) => e.kind === 'fault').map((e) => e.step)).toEqual([faultStep]);
    svc.dispose();
  });
});
