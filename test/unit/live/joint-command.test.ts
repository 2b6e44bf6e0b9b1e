/**
 * A per-joint velocity command reaches its joint: the bundled differential-drive robot with one
 * more joint, a turntable on the chassis declared with a ros2_control velocity interface (so it
 * has a motor no controller owns). Commanded at 1.5 rad/s in lockstep, the turntable turns at that
 * rate while the wheels stay as the drive leaves them; a recording is refused while the command
 * is in effect (a recording carries only drive commands), and a reset clears it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveSession } from '../../../sim/live/session';
import { writeTurntableScenario } from './turntable-scenario';

const tmp = mkdtempSync(join(tmpdir(), 'tw-joint-cmd-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const writeScenario = (): string => writeTurntableScenario(tmp);

describe('LiveSession.setJointVelocity', () => {
  it('turns a joint with a free motor at the commanded rate; refused while recording; cleared by reset', async () => {
    const s = await LiveSession.open(writeScenario(), { lockstep: true, recordThread: false });
    try {
      const joints = s.info().joints;
      const j = joints.findIndex((d) => d.name === 'turntable_joint');
      expect(j).toBeGreaterThanOrEqual(0);
      expect(joints[j].motor).toBe(true);
      expect(joints[j].controlled).toBe(false);
      await s.step(100);
      // held at rest by its velocity interface until commanded
      expect(Math.abs(s.current().jointVelocity[j])).toBeLessThan(0.05);
      const q0 = s.current().jointPosition[j];
      s.setJointVelocity('turntable_joint', 1.5);
      await expect(s.startRecording(join(tmp, 'refused.mcap'))).rejects.toThrow(/per-joint velocity commands/);
      await s.step(200);
      expect(s.current().jointVelocity[j]).toBeCloseTo(1.5, 1);
      const dt = s.info().dt;
      // 200 steps at 1.5 rad/s, less the spin-up
      expect(s.current().jointPosition[j] - q0).toBeGreaterThan(0.8 * 1.5 * 200 * dt);
      await s.reset();
      const status = await s.startRecording(join(tmp, 'after-reset.mcap'));
      expect(status).toBeTruthy();
      await s.stopRecording();
    } finally {
      await s.close();
    }
  }, 120_000);
});
