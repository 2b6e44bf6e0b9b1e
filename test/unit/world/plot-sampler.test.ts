/**
 * Per-step plot data (issue #30 item 2): the worker samples the chosen series at every step, the
 * samples equal the values the recording gives for those steps (same functions over the same
 * float32 frames), and a seek back never leaves samples after the seek step (nothing appended out
 * of order).
 */
import { describe, expect, it } from 'vitest';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { SimServiceImpl } from '../../../sim/app/service';
import { MemorySink, bytesSource } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { loadCodecs } from '../../../sim/record/codecs';
import { availableSeries, type SeriesFrame } from '../../../sim/app/plot-series';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../../../sim/dynamics/frame-layout';

/** 10 m × 10 m, bumpy (so forces and depths vary step to step). */
function bumps(): Heightfield {
  const n = 101, h = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 0.03 * Math.sin(i * 0.9) * Math.cos(j * 0.7);
  return Heightfield.fromArray({ cols: n, rows: n, dx: 0.1, dy: 0.1, heights: h });
}

const scenario = { format: 'terrawheel-scenario', version: 1, name: 'plots', terrain: 't.json', start: { position: [3, 5], yaw: 0 }, dt: 0.005 };

describe('per-step plot samples', () => {
  it('every step is sampled and equals the recording, step by step', async () => {
    const svc = new SimServiceImpl({ decodeTerrain: () => bumps() });
    const info = await svc.load({ scenario, terrainSidecar: {}, terrainData: new Uint8Array(1) });
    const wheel = info.bodies.findIndex((b) => b.role === 'wheel');
    const keys = ['body:0:z', 'body:0:pitch', 'body:0:vx', `wheel:${wheel}:force`, `wheel:${wheel}:depth`, `wheel:${wheel}:count`, `pair:${wheel}:-1:force`, 'contacts'];
    svc.setPlotSeries(keys);
    const sink = new MemorySink();
    await svc.startRecordingTo(sink, { keyframeInterval: 50 });
    svc.setDrive({ throttle: 0.8, steer: 0.2 });
    await svc.step(150);
    svc.setDrive({ throttle: -0.5, steer: -0.3 });
    await svc.step(150);
    await svc.stopRecording();
    const p = (await svc.latestFrame(-1)).plot!;
    expect(p.keys).toEqual(keys);
    expect(Array.from(p.steps)).toEqual(Array.from({ length: 301 }, (_, k) => k)); // every step, 0..300

    const reader = await RecordingReader.open(bytesSource(sink.bytes()), { codecs: await loadCodecs() });
    const defs = availableSeries(info);
    let checked = 0, forceVaries = new Set<number>();
    for (let r = 0; r < p.steps.length; r++) {
      const rf = await reader.frameAt(p.steps[r]);
      expect(rf).not.toBeNull();
      const f: SeriesFrame = {
        time: rf!.time, speed: 0,
        poses: Float32Array.from(rf!.poses.subarray(0, rf!.bodyCount * POSE_STRIDE)),
        velocities: Float32Array.from(rf!.velocities.subarray(0, rf!.bodyCount * VELOCITY_STRIDE)),
        contacts: Float32Array.from(rf!.contacts.subarray(0, rf!.contactCount * CONTACT_STRIDE)),
        contactInfo: Int32Array.from(rf!.contactInfo.subarray(0, rf!.contactCount * CONTACT_INFO_STRIDE)),
      };
      keys.forEach((k, c) => {
        const want = Math.fround(defs.find((d) => d.key === k)!.sample(f, info.dt));
        expect(p.values[r * keys.length + c], `${k} at step ${p.steps[r]}`).toBe(want);
        checked++;
      });
      forceVaries.add(p.values[r * keys.length + 3]);
    }
    expect(checked).toBe(301 * keys.length);
    expect(forceVaries.size).toBeGreaterThan(100); // the force is not a constant the check would pass trivially

    // only what is new comes with the next frame
    await svc.step(5);
    expect(Array.from((await svc.latestFrame(300)).plot!.steps)).toEqual([301, 302, 303, 304, 305]);
    svc.dispose();
  });

  it('a seek back drops the samples after the seek step: the steps handed out stay increasing', async () => {
    const svc = new SimServiceImpl({ decodeTerrain: () => bumps() });
    await svc.load({ scenario, terrainSidecar: {}, terrainData: new Uint8Array(1) });
    svc.setPlotSeries(['body:0:x']);
    const sink = new MemorySink();
    await svc.startRecordingTo(sink, { keyframeInterval: 40 });
    svc.setDrive({ throttle: 1, steer: 0 });
    await svc.step(200);
    await svc.stopRecording();
    await svc.openRecording(sink.bytes());
    await svc.seek(180);
    await svc.seek(90);
    const p = (await svc.latestFrame(-1)).plot!;
    const steps = Array.from(p.steps);
    expect(steps[steps.length - 1]).toBe(90);
    for (let k = 1; k < steps.length; k++) expect(steps[k]).toBeGreaterThan(steps[k - 1]);
    // the renderer, which had plotted up to 200, asks after 200: nothing (it truncates to the frame's step itself)
    expect((await svc.latestFrame(200)).plot!.steps.length).toBe(0);
    svc.dispose();
  });
});
