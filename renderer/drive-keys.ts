/**
 * Keyboard → DriveCommand, pure (no DOM) so it is unit-tested. Keys are KeyboardEvent.code values
 * (physical positions), so WASD works on any keyboard layout.
 *
 *   W / ArrowUp    throttle +1        A / ArrowLeft   steer +1 (turn left, CCW seen from above)
 *   S / ArrowDown  throttle −1        D / ArrowRight  steer −1
 *
 * Opposite keys cancel; Shift halves both (fine manoeuvring).
 */
import type { DriveCommand } from '../sim/app/protocol';

const FORWARD = new Set(['KeyW', 'ArrowUp']);
const BACK = new Set(['KeyS', 'ArrowDown']);
const LEFT = new Set(['KeyA', 'ArrowLeft']);
const RIGHT = new Set(['KeyD', 'ArrowRight']);

/** Fraction of full command while Shift is held. */
export const FINE_DRIVE_SCALE = 0.5;

export function isDriveKey(code: string): boolean {
  return FORWARD.has(code) || BACK.has(code) || LEFT.has(code) || RIGHT.has(code);
}

/** Writes the command for the set of held keys into `out` and returns it. */
export function driveFromKeys(out: DriveCommand, held: ReadonlySet<string>): DriveCommand {
  let fwd = 0, back = 0, left = 0, right = 0;
  for (const code of held) {
    if (FORWARD.has(code)) fwd = 1;
    else if (BACK.has(code)) back = 1;
    else if (LEFT.has(code)) left = 1;
    else if (RIGHT.has(code)) right = 1;
  }
  const scale = held.has('ShiftLeft') || held.has('ShiftRight') ? FINE_DRIVE_SCALE : 1;
  // `+ 0` turns −0 into 0 so "no keys" compares equal to the zero command.
  out.throttle = (fwd - back) * scale + 0;
  out.steer = (left - right) * scale + 0;
  return out;
}

export function sameDrive(a: DriveCommand, b: DriveCommand): boolean {
  return a.throttle === b.throttle && a.steer === b.steer;
}
