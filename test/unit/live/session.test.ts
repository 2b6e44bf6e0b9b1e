/**
 * LiveSession (sim/live/session.ts) on a bundled scenario, in lockstep: stepping and subscribers,
 * a twist moves the robot, reset gives back the loaded world bit for bit, and a recording of a run
 * driven from outside verifies and ends at the state hash of the same inputs run headless.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LiveSession, type LiveState } from '../../../sim/live/session';
import { createDefaultService } from '../../../sim/app/default-service';
import { readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { verifyRecordingFile } from '../../../sim/node/cli';

const SCENARIO = resolve(__dirname, '../../../assets/scenarios/default.json');
const dir = mkdtempSync(join(tmpdir(), 'tw-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** x of the robot's base in a state. */
function baseX(s: LiveState, base: number): number {
  return s.frame.poses[7 * base];
}

describe('LiveSession', () => {
  it('steps only on step(n) in lockstep and hands subscribers the state after each batch', async () => {
    const s = await LiveSession.open(SCENARIO, { lockstep: true, recordThread: false });
    try {
      const info = s.info();
      expect(info.scenarioName).toBe('Rolling hills');
      expect(info.wheels.length).toBe(4);
      expect(info.controller?.type).toBe('skid-steer');
      expect(info.joints.filter((j) => j.controlled).length).toBe(4);
      const seen: number[] = [];
      s.subscribe((st) => seen.push(st.step));
      await s.idle();
      expect(seen).toEqual([0]);
      expect(() => s.resume()).toThrow(/lockstep/);
      await s.step(5);
      await s.step(3);
      expect(seen).toEqual([0, 5, 8]);
      expect(s.stepCount).toBe(8);
      const st = s.current();
      expect(st.frame.bodyCount).toBe(info.bodies.length);
      expect(st.jointVelocity.length).toBe(info.joints.length);
      expect(st.stateHash()).toMatch(/^[0-9a-f]{16}$/);
      await expect(s.step(-1)).rejects.toThrow(/integer/);
    } finally {
      await s.close();
    }
  });

  it('free-running: the clock steps the world in batches until paused', async () => {
    const s = await LiveSession.open(SCENARIO, { timeScale: 2, recordThread: false });
    try {
      expect(s.isRunning).toBe(true);
      const reached = new Promise<number>((done) => {
        const off = s.subscribe((st) => {
          if (st.step >= 20 && st.batchSteps > 0) {
            off();
            done(st.step);
          }
        });
      });
      expect(await reached).toBeGreaterThanOrEqual(20);
      s.pause();
      await s.idle();
      const at = s.stepCount;
      await s.step(1);
      expect(s.stepCount).toBe(at + 1);
      // as fast as the CPU allows: batch after batch until paused
      expect(s.setTimeScale(Infinity)).toBe(Infinity);
      expect(() => s.setTimeScale(Number.NaN)).toThrow(/time scale/);
      const fast = new Promise<void>((done) => {
        const off = s.subscribe((st) => {
          if (st.step >= at + 200) {
            off();
            done();
          }
        });
      });
      s.resume();
      await fast;
      s.pause();
    } finally {
      await s.close();
    }
  });

  it('a twist drives the robot forward; reset gives back the loaded world', async () => {
    const s = await LiveSession.open(SCENARIO, { lockstep: true, recordThread: false });
    try {
      const base = s.info().baseBody;
      const h0 = s.stateHash();
      const x0 = baseX(s.current(), base);
      const cmd = s.setTwist(0.5, 0);
      expect(cmd.throttle).toBeGreaterThan(0);
      expect(cmd.steer).toBe(0);
      await s.step(400);
      expect(baseX(s.current(), base) - x0).toBeGreaterThan(0.3);
      expect(() => s.setTwist(Number.NaN, 0)).toThrow(/linear\.x/);
      expect(() => s.setJointVelocity('nope', 1)).toThrow(/no joint named "nope"/);
      const wheelJoint = s.info().joints.find((j) => j.controlled)!.name;
      expect(() => s.setJointVelocity(wheelJoint, 1)).toThrow(/controller/);
      await s.reset();
      expect(s.stepCount).toBe(0);
      expect(s.stateHash()).toBe(h0);
      // after a reset the world steps exactly as a fresh one
      await s.step(50);
      const fresh = await LiveSession.open(SCENARIO, { lockstep: true, recordThread: false });
      await fresh.step(50);
      expect(s.stateHash()).toBe(fresh.stateHash());
      await fresh.close();
    } finally {
      await s.close();
    }
  });

  it('a twist becomes the Ackermann controller\'s command: throttle v/maxSpeed, bicycle angle atan(ωL/v)', async () => {
    const s = await LiveSession.open(resolve(__dirname, '../../../assets/scenarios/robot-ackermann-car.json'), { lockstep: true, recordThread: false });
    try {
      const c = s.info().controller;
      expect(c?.type).toBe('ackermann');
      if (c?.type !== 'ackermann') return;
      const d = s.setTwist(1, 0.4);
      expect(d.throttle).toBeCloseTo(1 / c.maxSpeed, 12);
      expect(d.steer).toBeCloseTo(Math.atan((0.4 * c.wheelbase) / 1) / c.maxBicycleAngle, 12);
      expect(s.setTwist(0, 0.4).steer).toBe(0); // no steering at a standstill
      expect(s.setTwist(-1, 0.4).steer).toBeLessThan(0); // reversing: the same yaw rate needs the opposite angle
    } finally {
      await s.close();
    }
  });

  it('a recording of a run driven from outside verifies and matches the same inputs run headless', async () => {
    const file = join(dir, 'driven.mcap');
    const s = await LiveSession.open(SCENARIO, { lockstep: true });
    const inputs: [number, number, number][] = [];
    let hash: string;
    try {
      await s.step(10);
      await s.startRecording(file);
      await s.step(20);
      let d = s.setTwist(0.6, 0.3);
      inputs.push([s.stepCount, d.throttle, d.steer]);
      await s.step(120);
      d = s.setTwist(-0.2, -0.5);
      inputs.push([s.stepCount, d.throttle, d.steer]);
      await s.step(80);
      const status = await s.stopRecording();
      expect(status.inputs).toBe(2);
      expect(status.path).toBe(file);
      hash = s.stateHash();
    } finally {
      await s.close();
    }
    const v = await verifyRecordingFile(file, null);
    expect(v.verdict).toBe('deterministic');
    expect(v.keyframesChecked).toBeGreaterThan(0);
    // the same inputs, headless (the service the CLI uses)
    const svc = createDefaultService();
    try {
      await svc.load(await readScenarioFilesAsync(SCENARIO));
      let at = 0;
      for (const [step, throttle, steer] of inputs) {
        await svc.step(step - at);
        at = step;
        svc.setDrive({ throttle, steer });
      }
      await svc.step(230 - at);
      expect(svc.getWorld()!.stepCount).toBe(230);
      expect(svc.getWorld()!.engine.stateHash()).toBe(hash);
    } finally {
      svc.dispose();
    }
  }, 120_000);
});
