/**
 * Gamepad driving with a fake navigator.getGamepads: dead zone (continuous, full scale at the
 * stops), stick mapping, merging with the keyboard, and polling only while a pad is connected.
 */
import { describe, expect, it } from 'vitest';
import type { DriveCommand } from '../../../sim/app/protocol';
import { applyDeadZone, DriveMixer, driveFromGamepad, GAMEPAD_DEAD_ZONE, installGamepad, readGamepads, type GamepadLike } from '../../../renderer/gamepad';

const pad = (axes: number[], connected = true): GamepadLike => ({ connected, axes });

/** A window with a fake navigator and a hand-cranked animation frame queue. */
function fakeWindow(pads: (GamepadLike | null)[]) {
  const target = new EventTarget();
  const frames = new Map<number, () => void>();
  let nextId = 1;
  const win = Object.assign(target, {
    navigator: { getGamepads: () => pads },
    requestAnimationFrame: (cb: () => void) => {
      frames.set(nextId, cb);
      return nextId++;
    },
    cancelAnimationFrame: (id: number) => void frames.delete(id),
  });
  const tick = (): void => {
    const due = [...frames.values()];
    frames.clear();
    for (const f of due) f();
  };
  return { win, pads, frames, tick };
}

describe('dead zone', () => {
  it('reads 0 inside, ±1 at the stops, and is continuous at its edge', () => {
    expect(applyDeadZone(0)).toBe(0);
    expect(applyDeadZone(GAMEPAD_DEAD_ZONE)).toBe(0);
    expect(applyDeadZone(-GAMEPAD_DEAD_ZONE * 0.9)).toBe(0);
    expect(applyDeadZone(1)).toBe(1);
    expect(applyDeadZone(-1)).toBe(-1);
    expect(applyDeadZone(1.3)).toBe(1); // some pads overshoot
    expect(applyDeadZone(GAMEPAD_DEAD_ZONE + 1e-6)).toBeLessThan(1e-5);
    expect(applyDeadZone((1 + GAMEPAD_DEAD_ZONE) / 2)).toBeCloseTo(0.5, 12);
    expect(applyDeadZone(Number.NaN)).toBe(0);
  });

  it('is monotonic and odd over the whole range', () => {
    let prev = -Infinity;
    for (let k = -100; k <= 100; k++) {
      const v = applyDeadZone(k / 100);
      expect(v).toBeGreaterThanOrEqual(prev);
      expect(applyDeadZone(-k / 100)).toBe(-v + 0);
      prev = v;
    }
  });
});

describe('stick mapping', () => {
  it('left stick up drives forward, right turns clockwise (steer −); the further-pushed x stick steers', () => {
    const out: DriveCommand = { throttle: 0, steer: 0 };
    expect(driveFromGamepad(out, pad([0, -1, 0, 0]))).toEqual({ throttle: 1, steer: 0 });
    expect(driveFromGamepad(out, pad([1, 0, 0, 0]))).toEqual({ throttle: 0, steer: -1 });
    expect(driveFromGamepad(out, pad([0.3, 0, -1, 0]))).toEqual({ throttle: 0, steer: 1 });
    expect(driveFromGamepad(out, pad([0.05, 0.05, -0.05, 0]))).toEqual({ throttle: 0, steer: 0 });
  });

  it('merges several pads by magnitude and ignores disconnected ones', () => {
    const out: DriveCommand = { throttle: 9, steer: 9 };
    expect(readGamepads(out, { getGamepads: () => [null, pad([0, -0.5]), pad([-1, 1], false), pad([1, -1 + 0])] })).toBe(true);
    expect(out.throttle).toBe(1);
    expect(out.steer).toBe(-1);
    expect(readGamepads(out, { getGamepads: () => [null, pad([1, 1], false)] })).toBe(false);
    expect(out).toEqual({ throttle: 0, steer: 0 });
  });
});

describe('polling', () => {
  it('polls each animation frame only while a pad is connected', () => {
    const f = fakeWindow([null]);
    const seen: (DriveCommand | null)[] = [];
    const stop = installGamepad(f.win, f.win.navigator, (c) => seen.push(c && { ...c }));
    expect(f.frames.size).toBe(0); // no pad: nothing scheduled
    f.pads[0] = pad([0, -1]);
    f.win.dispatchEvent(new Event('gamepadconnected'));
    expect(f.frames.size).toBe(1);
    f.tick();
    f.tick();
    expect(seen).toEqual([{ throttle: 1, steer: 0 }, { throttle: 1, steer: 0 }]);
    f.pads[0] = null; // unplugged
    f.tick();
    expect(seen[2]).toBeNull();
    expect(f.frames.size).toBe(0);
    stop();
  });
});

describe('keyboard and gamepad together', () => {
  it('the larger magnitude wins per axis, sent only on change; the pad going away leaves the keys', () => {
    const sent: DriveCommand[] = [];
    const mix = new DriveMixer((c) => sent.push(c));
    mix.setPad({ throttle: 0.5, steer: 1 });
    expect(sent).toEqual([{ throttle: 0.5, steer: 1 }]);
    mix.setPad({ throttle: 0.5, steer: 1 }); // polled again, unchanged: nothing sent
    expect(sent).toHaveLength(1);
    mix.setKeys({ throttle: 1, steer: 0 }); // full keyboard throttle beats the half-pushed stick
    expect(sent.at(-1)).toEqual({ throttle: 1, steer: 1 });
    mix.setKeys({ throttle: -0.25, steer: -1 }); // a tie on steer keeps the keyboard's
    expect(sent.at(-1)).toEqual({ throttle: 0.5, steer: -1 });
    mix.setPad(null);
    expect(sent.at(-1)).toEqual({ throttle: -0.25, steer: -1 });
    mix.setKeys({ throttle: 0, steer: 0 });
    expect(sent.at(-1)).toEqual({ throttle: 0, steer: 0 });
  });
});
