/**
 * Gamepad → DriveCommand (the Gamepad API's "standard" mapping: axes 0/1 left stick x/y, 2/3
 * right stick x/y, y positive down).
 *
 *   left stick up/down            throttle +1 / −1
 *   left stick or right stick x   steer (right is −1: turn clockwise seen from above); the stick
 *                                 pushed further wins, so either thumb can steer
 *
 * Sticks rest a few hundredths off centre, so |value| ≤ GAMEPAD_DEAD_ZONE reads 0, and the rest
 * is rescaled to reach ±1 at full deflection (continuous at the dead zone's edge: no jump from 0 to
 * 0.12). Several connected pads merge like keyboard and pad do: the larger magnitude wins per axis.
 *
 * Polling: browsers only update gamepad state when asked (navigator.getGamepads()), so while a pad
 * is connected installGamepad polls once per animation frame; with no pad nothing runs.
 */
import type { DriveCommand } from '../sim/app/protocol';

/** Fraction of full stick deflection read as zero (typical resting offsets are 0.02–0.1). */
export const GAMEPAD_DEAD_ZONE = 0.12;

/** The part of the Gamepad API this module reads (a fake in tests). */
export interface GamepadLike {
  readonly connected: boolean;
  readonly axes: readonly number[];
}

export interface GamepadSource {
  getGamepads(): readonly (GamepadLike | null)[];
}

/** A stick value with the dead zone removed and rescaled to [−1, 1]; non-finite reads as 0. */
export function applyDeadZone(v: number, deadZone = GAMEPAD_DEAD_ZONE): number {
  if (!Number.isFinite(v)) return 0;
  const a = Math.abs(v);
  if (a <= deadZone) return 0;
  const scaled = Math.min(1, (a - deadZone) / (1 - deadZone));
  return v < 0 ? -scaled : scaled;
}

/** The larger-magnitude of two commands per axis (keyboard and pad, or two pads). */
export function mergeDrive(out: DriveCommand, a: DriveCommand, b: DriveCommand): DriveCommand {
  const t = Math.abs(b.throttle) > Math.abs(a.throttle) ? b.throttle : a.throttle;
  const s = Math.abs(b.steer) > Math.abs(a.steer) ? b.steer : a.steer;
  out.throttle = t;
  out.steer = s;
  return out;
}

const axis = (p: GamepadLike, k: number): number => applyDeadZone(p.axes[k] ?? 0);

/** One pad's command into `out`. */
export function driveFromGamepad(out: DriveCommand, pad: GamepadLike): DriveCommand {
  const lx = axis(pad, 0), ly = axis(pad, 1), rx = axis(pad, 2);
  const x = Math.abs(rx) > Math.abs(lx) ? rx : lx;
  // `+ 0` turns −0 into 0 (a resting stick compares equal to the zero command).
  out.throttle = -ly + 0;
  out.steer = -x + 0;
  return out;
}

const one: DriveCommand = { throttle: 0, steer: 0 };

/** Every connected pad merged into `out`; returns false (and zeroes `out`) when none is connected. */
export function readGamepads(out: DriveCommand, source: GamepadSource): boolean {
  out.throttle = 0;
  out.steer = 0;
  let any = false;
  let pads: readonly (GamepadLike | null)[];
  try {
    pads = source.getGamepads();
  } catch {
    return false; // blocked by a permissions policy
  }
  for (const p of pads) {
    if (!p || !p.connected) continue;
    any = true;
    mergeDrive(out, out, driveFromGamepad(one, p));
  }
  return any;
}

export interface GamepadHost {
  addEventListener(type: 'gamepadconnected', cb: () => void): void;
  removeEventListener(type: 'gamepadconnected', cb: () => void): void;
  requestAnimationFrame(cb: () => void): number;
  cancelAnimationFrame(id: number): void;
}

/**
 * Polls the pads each animation frame while one is connected and hands the merged command to
 * `onCommand` (null once the last pad is gone). Returns the function that stops it.
 */
export function installGamepad(win: GamepadHost, source: GamepadSource, onCommand: (cmd: DriveCommand | null) => void): () => void {
  const cmd: DriveCommand = { throttle: 0, steer: 0 };
  let frame: number | null = null;
  const poll = (): void => {
    frame = null;
    if (!readGamepads(cmd, source)) {
      onCommand(null);
      return; // no pad: stop until the next gamepadconnected
    }
    onCommand(cmd);
    frame = win.requestAnimationFrame(poll);
  };
  const start = (): void => {
    if (frame === null) frame = win.requestAnimationFrame(poll);
  };
  win.addEventListener('gamepadconnected', start);
  if (readGamepads(cmd, source)) start(); // a pad already known to the page
  return () => {
    win.removeEventListener('gamepadconnected', start);
    if (frame !== null) win.cancelAnimationFrame(frame);
    frame = null;
  };
}

/**
 * Keyboard and gamepad → the one command the worker gets: merged per axis (larger magnitude
 * wins) and sent only when it changes.
 */
export class DriveMixer {
  private readonly keys: DriveCommand = { throttle: 0, steer: 0 };
  private readonly pad: DriveCommand = { throttle: 0, steer: 0 };
  private readonly next: DriveCommand = { throttle: 0, steer: 0 };
  private readonly sent: DriveCommand = { throttle: 0, steer: 0 };

  constructor(private readonly send: (cmd: DriveCommand) => void) {}

  setKeys(cmd: DriveCommand): void {
    this.keys.throttle = cmd.throttle;
    this.keys.steer = cmd.steer;
    this.flush();
  }

  /** The pads' command, or null when none is connected. */
  setPad(cmd: DriveCommand | null): void {
    this.pad.throttle = cmd?.throttle ?? 0;
    this.pad.steer = cmd?.steer ?? 0;
    this.flush();
  }

  private flush(): void {
    mergeDrive(this.next, this.keys, this.pad);
    if (this.next.throttle === this.sent.throttle && this.next.steer === this.sent.steer) return;
    this.sent.throttle = this.next.throttle;
    this.sent.steer = this.next.steer;
    this.send({ throttle: this.sent.throttle, steer: this.sent.steer });
  }
}
