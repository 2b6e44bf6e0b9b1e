/**
 * AppState (renderer/app-state.ts): the renderer's one state. Setters change it, subscribers of a
 * field hear each change once (not a value set again), a new world clears the previous world's
 * frame, selection and heights, the time scale is clamped, and a worker failure repeated counts up.
 */
import { describe, expect, it } from 'vitest';
import { AppState, type LoadedWorld } from '../../../renderer/app-state';
import { TIME_SCALE_MAX, TIME_SCALE_MIN } from '../../../renderer/config';
import type { ExactHeights } from '../../../renderer/inspect/terrain-heights';
import { NO_SELECTION } from '../../../renderer/inspect/selection';
import type { Frame, WorldInfo } from '../../../sim/app/protocol';

const world = (name: string): LoadedWorld => ({
  info: { scenarioName: name, bodies: [], joints: [] } as unknown as WorldInfo,
  bodySizes: [0.5],
  staticWarnings: ['terrain too fine'],
  seriesDefs: [],
  terrainBytes: 1234,
});

/** Heights that record their disposal (the state disposes the previous world's). */
function heights(): { disposed: number; h: ExactHeights } {
  const rec = { disposed: 0, h: null as unknown as ExactHeights };
  rec.h = { dispose: () => void rec.disposed++ } as unknown as ExactHeights;
  return rec;
}

describe('AppState', () => {
  it('starts empty: no world, running at scale 1, nothing selected or shown', () => {
    const s = new AppState();
    expect([s.world, s.shown, s.exactHeights, s.workerFailure]).toEqual([null, null, null, null]);
    expect([s.paused, s.timeScale, s.selection, s.framesRendered, s.panelTicks]).toEqual([false, 1, NO_SELECTION, 0, 0]);
  });

  it('notifies a field\'s subscribers once per change, not for the same value, and stops after unsubscribe', () => {
    const s = new AppState();
    const seen: boolean[] = [];
    const off = s.subscribe('paused', (p) => seen.push(p));
    const other: unknown[] = [];
    s.subscribe('timeScale', (v) => other.push(v));
    s.setPaused(true);
    s.setPaused(true);
    s.setPaused(false);
    off();
    s.setPaused(true);
    expect(seen).toEqual([true, false]);
    expect(other).toEqual([]);
    expect(s.paused).toBe(true);
  });

  it('a new world replaces the last one\'s frame, selection and exact heights (disposing them)', () => {
    const s = new AppState();
    const h1 = heights(), h2 = heights();
    s.worldLoaded(world('a'), h1.h);
    s.show({ step: 7 } as Frame, { type: 'body', body: 0 });
    expect(s.selection).toEqual({ type: 'body', body: 0 });
    const order: string[] = [];
    s.subscribe('world', (w) => order.push(`world ${w?.scenarioName} shown ${s.shown === null ? 'cleared' : 'kept'}`));
    s.worldLoaded(world('b'), h2.h);
    expect(order).toEqual(['world b shown cleared']); // subscribers of `world` see the rest already reset
    expect([h1.disposed, h2.disposed]).toEqual([1, 0]);
    expect([s.shown, s.selection]).toEqual([null, NO_SELECTION]);
    expect(s.exactHeights).toBe(h2.h);
    expect([s.bodySizes, s.staticWarnings, s.terrainBytesFromWorker]).toEqual([[0.5], ['terrain too fine'], 1234]);
    s.addStaticWarnings(['robot visuals missing']);
    expect(s.staticWarnings).toEqual(['terrain too fine', 'robot visuals missing']);
  });

  it('clamps the time scale to the worker\'s range and reads NaN as 1', () => {
    const s = new AppState();
    expect(s.setTimeScale(1000)).toBe(TIME_SCALE_MAX);
    expect(s.setTimeScale(0)).toBe(TIME_SCALE_MIN);
    expect(s.setTimeScale(Number.NaN)).toBe(1);
    expect(s.timeScale).toBe(1);
  });

  it('says whether the warnings over the view changed', () => {
    const s = new AppState();
    expect(s.setWarningsShown(['a'])).toBe(true);
    expect(s.setWarningsShown(['a'])).toBe(false);
    expect(s.setWarningsShown([])).toBe(true);
  });

  it('counts frames and panel redraws', () => {
    const s = new AppState();
    const ticks: number[] = [];
    s.subscribe('panelTicks', (n) => ticks.push(n));
    for (let k = 0; k < 3; k++) s.frameRendered();
    s.frameReceived();
    s.panelTick();
    s.panelTick();
    expect([s.framesRendered, s.framesReceived, s.panelTicks]).toEqual([3, 1, 2]);
    expect(ticks).toEqual([1, 2]);
  });

  it('a worker failure is reported to subscribers; the same one again counts up, another starts at 1', () => {
    const s = new AppState();
    const shown: string[] = [];
    s.subscribe('workerFailure', (f) => shown.push(f ? `${f.call}: ${f.message} ×${f.count}` : 'cleared'));
    s.reportWorkerFailure('setRunning', 'no world');
    s.reportWorkerFailure('setRunning', 'no world');
    s.reportWorkerFailure('setDrive', 'could not be cloned');
    s.clearWorkerFailure();
    expect(shown).toEqual(['setRunning: no world ×1', 'setRunning: no world ×2', 'setDrive: could not be cloned ×1', 'cleared']);
  });
});
