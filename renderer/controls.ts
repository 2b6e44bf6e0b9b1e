/**
 * Keyboard controls. Drive keys (drive-keys.ts) send a DriveCommand to the worker only when the
 * command changes (key up resets it); Space pauses/resumes, '.' single-steps while paused, C
 * toggles contact markers, H or ? toggles the help overlay, I the contact inspector, ] and [ double and halve the time scale,
 * R resets, X toggles x-ray, V cycles camera presets, Escape clears the selection. Losing focus releases every key, so a
 * robot never keeps driving after an alt-tab. A gamepad (gamepad.ts) drives too: keyboard and pad
 * merge per axis, the larger magnitude wins.
 */
import type { DriveCommand } from '../sim/app/protocol';
import { driveFromKeys, isDriveKey } from './drive-keys';
import { DriveMixer, installGamepad, type GamepadHost, type GamepadSource } from './gamepad';

export interface ControlActions {
  drive(cmd: DriveCommand): void;
  togglePause(): void;
  stepOnce(): void;
  toggleContacts(): void;
  toggleHelp(): void;
  toggleInspector(): void;
  /** Multiplies the simulation's time scale (']' faster ×2, '[' slower ÷2). */
  scaleTime(factor: number): void;
  /** R: load the running world again from its start. */
  reset?(): void;
  /** X: contacts drawn through bodies. */
  toggleXray?(): void;
  /** V: next camera preset. */
  nextCamera?(): void;
  /** Escape: clear the selection. */
  clearSelection?(): void;
}

export function installControls(target: Window, actions: ControlActions): () => void {
  const held = new Set<string>();
  const keys: DriveCommand = { throttle: 0, steer: 0 };
  const mixer = new DriveMixer((cmd) => actions.drive(cmd));
  const update = (): void => {
    mixer.setKeys(driveFromKeys(keys, held));
  };
  const typing = (e: KeyboardEvent): boolean => {
    const t = e.target as HTMLElement | null;
    return !!t && (t.tagName === 'INPUT' && (t as HTMLInputElement).type !== 'checkbox' || t.tagName === 'TEXTAREA' || t.isContentEditable);
  };
  const down = (e: KeyboardEvent): void => {
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (isDriveKey(e.code) || e.code === 'ShiftLeft' || e.code === 'ShiftRight') {
      if (isDriveKey(e.code)) e.preventDefault(); // arrows must not scroll the page
      held.add(e.code);
      update();
      return;
    }
    if (e.repeat) return;
    if (e.code === 'Space') {
      e.preventDefault();
      actions.togglePause();
    } else if (e.key === '.') {
      actions.stepOnce();
    } else if (e.code === 'KeyC') {
      actions.toggleContacts();
    } else if (e.code === 'KeyH' || e.key === '?') {
      actions.toggleHelp();
    } else if (e.code === 'KeyI') {
      actions.toggleInspector();
    } else if (e.code === 'KeyR') {
      actions.reset?.();
    } else if (e.code === 'KeyX') {
      actions.toggleXray?.();
    } else if (e.code === 'KeyV') {
      actions.nextCamera?.();
    } else if (e.key === 'Escape') {
      actions.clearSelection?.();
    } else if (e.key === ']') {
      actions.scaleTime(2);
    } else if (e.key === '[') {
      actions.scaleTime(0.5);
    }
  };
  const up = (e: KeyboardEvent): void => {
    if (held.delete(e.code)) update();
  };
  const blur = (): void => {
    held.clear();
    update();
  };
  const nav = (target as { navigator?: Partial<GamepadSource> }).navigator;
  const stopPad =
    nav && typeof nav.getGamepads === 'function'
      ? installGamepad(target as unknown as GamepadHost, nav as GamepadSource, (cmd) => mixer.setPad(cmd))
      : () => undefined;
  target.addEventListener('keydown', down);
  target.addEventListener('keyup', up);
  target.addEventListener('blur', blur);
  return () => {
    stopPad();
    target.removeEventListener('keydown', down);
    target.removeEventListener('keyup', up);
    target.removeEventListener('blur', blur);
  };
}
