/**
 * A per-joint velocity command reaches its joint, and is an input of a recording: the bundled
 * differential-drive robot with one more joint, a turntable on the chassis declared with a
 * ros2_control velocity interface (so it has a motor no controller owns;
 * test/unit/live/turntable-scenario.ts). Commanded at 1.5 rad/s in lockstep, the turntable turns at
 * that rate. Driven from live clients (roslib's /terrawheel/joint_commands and the Foxglove
 * client's /terrawheel/joint_velocity, with /cmd_vel) while recording, the file holds the joint
 * inputs at their steps and `terrawheel verify` re-simulates it bit for bit; the app's replay
 * (seek) lands on the state the live run had.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveSession } from '../../../sim/live/session';
import { startFoxgloveServer } from '../../../sim/live/foxglove-server';
import { startRosbridgeServer } from '../../../sim/live/rosbridge/server';
import { verifyRecordingFile } from '../../../sim/node/cli';
import { createDefaultService } from '../../../sim/app/default-service';
import { readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { RecordingReader } from '../../../sim/record/reader';
import { bytesSource } from '../../../sim/record/io';
import { loadCodecs } from '../../../sim/record/codecs';
import { FoxClient } from './fox-client';
import { loadRoslib, rosCall, rosConnect } from './rosbridge/roslib-client';
import { TURNTABLE_JOINT, writeTurntableScenario } from './turntable-scenario';

const tmp = mkdtempSync(join(tmpdir(), 'tw-joint-cmd-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const scenario = writeTurntableScenario(tmp);

describe('LiveSession.setJointVelocity', () => {
  it('turns a joint with a free motor at the commanded rate; a reset clears it', async () => {
    const s = await LiveSession.open(scenario, { lockstep: true, recordThread: false });
    try {
      const joints = s.info().joints;
      const j = joints.findIndex((d) => d.name === TURNTABLE_JOINT);
      expect(j).toBeGreaterThanOrEqual(0);
      expect(joints[j].motor).toBe(true);
      expect(joints[j].controlled).toBe(false);
      await s.step(100);
      // held at rest by its velocity interface until commanded
      expect(Math.abs(s.current().jointVelocity[j])).toBeLessThan(0.05);
      const q0 = s.current().jointPosition[j];
      s.setJointVelocity(TURNTABLE_JOINT, 1.5);
      await s.step(200);
      expect(s.current().jointVelocity[j]).toBeCloseTo(1.5, 1);
      const dt = s.info().dt;
      // 200 steps at 1.5 rad/s, less the spin-up
      expect(s.current().jointPosition[j] - q0).toBeGreaterThan(0.8 * 1.5 * 200 * dt);
      expect(() => s.setJointVelocity(TURNTABLE_JOINT, Number.NaN)).toThrow(/finite number/);
      await s.reset();
      await s.step(50);
      expect(Math.abs(s.current().jointVelocity[j])).toBeLessThan(0.05);
    } finally {
      await s.close();
    }
  }, 120_000);

  it('a run driven per joint from roslib and Foxglove, recorded, verifies bit for bit and replays to the live state', async () => {
    const s = await LiveSession.open(scenario, { lockstep: true, recordThread: false, scenarioPath: scenario });
    const fox = await startFoxgloveServer(s, { port: 0, recordDir: tmp, log: () => undefined });
    const ros = await startRosbridgeServer(s, { port: 0 });
    const roslib = await loadRoslib();
    const r = await rosConnect(roslib, ros.url);
    const c = await FoxClient.connect(fox.url);
    const step = (n: number) => rosCall<{ step: number; state_hash: string }>(roslib, r, '/terrawheel/step', 'terrawheel_msgs/Step', { n });
    try {
      const joint = new roslib.Topic<object>({ ros: r, name: '/terrawheel/joint_commands', messageType: 'sensor_msgs/JointState' });
      const twist = new roslib.Topic<object>({ ros: r, name: '/cmd_vel', messageType: 'geometry_msgs/Twist' });
      const foxJoint = c.publisher('/terrawheel/joint_velocity', 'terrawheel.JointVelocity');
      // a command before the recording starts is in the first keyframe's state
      joint.publish({ name: [TURNTABLE_JOINT], velocity: [0.7], position: [], effort: [] });
      await step(20);
      await c.call('/terrawheel/start_recording', { file: 'per-joint.mcap' });
      joint.publish({ name: [TURNTABLE_JOINT], velocity: [2], position: [], effort: [] });
      twist.publish({ linear: { x: 0.4, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0.5 } });
      await step(120);
      foxJoint({ name: TURNTABLE_JOINT, velocity: -1.25 });
      // one connection's messages are handled in order: after this answer the command is applied
      await c.call('/terrawheel/step', { steps: 0 });
      await step(90);
      joint.publish({ name: [TURNTABLE_JOINT], velocity: [0], position: [], effort: [] });
      const last = await step(60);
      const stop = await c.call('/terrawheel/stop_recording');
      expect(stop.message).toMatch(/finished: 270 steps/);
      expect(last.step).toBe(290);
      const file = join(tmp, 'per-joint.mcap');

      const reader = await RecordingReader.open(bytesSource(new Uint8Array(readFileSync(file))), { codecs: await loadCodecs() });
      expect(reader.info.metadata.formatVersion).toBe(4);
      expect(await reader.jointInputs()).toEqual([
        { step: 20, joint: TURNTABLE_JOINT, velocity: 2 },
        { step: 140, joint: TURNTABLE_JOINT, velocity: -1.25 },
        { step: 230, joint: TURNTABLE_JOINT, velocity: 0 },
      ]);
      const v = await verifyRecordingFile(file, null);
      expect(v.message).toMatch(/deterministic/);
      expect(v.verdict).toBe('deterministic');

      // the app's replay: seek to the last step, the state hash the live run reported there
      const svc = createDefaultService();
      try {
        await svc.load(await readScenarioFilesAsync(scenario));
        await svc.openRecording(new Uint8Array(readFileSync(file)), 'per-joint.mcap');
        await svc.seek(last.step);
        expect(svc.getWorld()!.engine.stateHash()).toBe(last.state_hash);
      } finally {
        svc.dispose();
      }
    } finally {
      c.close();
      r.close();
      await ros.close();
      await fox.close();
      await s.close();
    }
  }, 120_000);
});
