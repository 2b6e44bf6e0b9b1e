/**
 * The plots' per-step store and its min/max decimation (issue #30 item 2): a one-step spike
 * survives decimation to a few pixels; seeking back never leaves later samples, a gap restarts
 * the run, a repeated step is never appended out of order.
 */
import { describe, expect, it } from 'vitest';
import { decimateMinMax, PlotStore } from '../../../renderer/panels/plot-store';

const DT = 0.005;

function samples(keys: string[], from: number, to: number, value: (step: number, col: number) => number) {
  const m = to - from + 1, n = keys.length;
  const steps = new Float64Array(m), times = new Float64Array(m), values = new Float32Array(m * n);
  for (let r = 0; r < m; r++) {
    steps[r] = from + r;
    times[r] = (from + r) * DT;
    for (let c = 0; c < n; c++) values[r * n + c] = value(from + r, c);
  }
  return { keys, steps, times, values };
}

describe('plot store and decimation', () => {
  it('a one-step spike (and a one-step dip) survive decimation of 20 000 steps to 100 pixels', () => {
    const s = new PlotStore();
    s.reset(['force']);
    s.append(samples(['force'], 0, 19_999, (k) => (k === 12_345 ? 900 : k === 4_321 ? -50 : 100 + Math.sin(k / 50))));
    const d = decimateMinMax(s, [0], 0, 19_999 * DT, 100);
    expect(d.x.length).toBeLessThanOrEqual(200);
    expect(Math.max(...(d.y[0] as number[]))).toBe(900);
    expect(Math.min(...(d.y[0] as number[]))).toBe(-50);
    // x increasing (uPlot needs it) and y aligned with x
    for (let k = 1; k < d.x.length; k++) expect(d.x[k]).toBeGreaterThanOrEqual(d.x[k - 1]);
    expect(d.y[0].length).toBe(d.x.length);
    // a plain every-other-sample thinning (what a per-frame sampler amounts to) loses it
    const thinned = Array.from({ length: 100 }, (_, b) => s.valueAt(0, b * 200));
    expect(Math.max(...thinned)).toBeLessThan(900);
  });

  it('few samples are returned as they are; NaN (no contact) is a gap, not a value', () => {
    const s = new PlotStore();
    s.reset(['a', 'b']);
    s.append(samples(['a', 'b'], 0, 9, (k, c) => (c === 1 && k === 3 ? NaN : k * (c + 1))));
    const d = decimateMinMax(s, [0, 1], 0, 1, 100);
    expect(d.x.length).toBe(10);
    expect(d.y[1][3]).toBeNull();
    expect(d.y[1][4]).toBe(8);
  });

  it('keepUpTo drops later samples; a gap restarts the run; repeated steps are skipped; other keys ignored', () => {
    const s = new PlotStore();
    s.reset(['a']);
    s.append(samples(['a'], 0, 99, (k) => k));
    s.keepUpTo(40);
    expect(s.lastStep).toBe(40);
    s.append(samples(['a'], 30, 50, (k) => -k)); // 30..40 already held: skipped, 41.. appended
    expect(s.count).toBe(51);
    expect(s.valueAt(0, 35)).toBe(35);
    expect(s.valueAt(0, 45)).toBe(-45);
    const steps = s.column(0).steps;
    for (let k = 1; k < steps.length; k++) expect(steps[k]).toBe(steps[k - 1] + 1);
    s.append(samples(['a'], 70, 80, (k) => k)); // a jump ahead: the run restarts
    expect(s.column(0).steps[0]).toBe(70);
    expect(s.count).toBe(11);
    s.append(samples(['b'], 81, 90, (k) => k)); // another choice: ignored
    expect(s.lastStep).toBe(80);
  });

  it('a full ring drops the oldest', () => {
    const s = new PlotStore(64);
    s.reset(['a']);
    s.append(samples(['a'], 0, 99, (k) => k));
    expect(s.count).toBe(64);
    expect(s.stepAt(0)).toBe(36);
    expect(s.lastStep).toBe(99);
  });
});
