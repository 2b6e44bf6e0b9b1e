/**
 * The Leo rover's rocker differential (test/fixtures/robots/leo, unmodified) with its rockers
 * free (the macro's rockers_fixed:=false, set by a two-line wrapper here): rocker_R_joint has
 * <mimic joint="rocker_L_joint"/> and the rockers' frames are mirrored (rpy 0 0 π), so the
 * coupling row turns them opposite ways in the world and the body stays level between them.
 * Without the row (the <mimic> stripped) the body pitches freely on its two rocker pivots.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { expandXacro } from '../../../sim/robot/urdf/xacro';
import { FIXTURES, flatGround, robotWorld, run } from './ros-harness';

const DIR = join(FIXTURES, 'leo/leo_description/urdf');
const WRAPPER = `<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="leo">
  <xacro:include filename="$(find leo_description)/urdf/macros.xacro"/>
  <xacro:leo rockers_fixed="false"/>
</robot>`;

async function leo(withMimic: boolean) {
  const path = join(DIR, 'leo-free-rockers.urdf.xacro');
  let urdf = (await expandXacro(WRAPPER, { path, readFile: (p) => { try { return readFileSync(p, 'utf8'); } catch { return undefined; } } })).urdf;
  if (!withMimic) urdf = urdf.replace(/<mimic[^>]*\/>/g, '');
  return loadUrdfRobot(urdf, { urdfPath: path, meshes: (p) => { try { return new Uint8Array(readFileSync(p)); } catch { return undefined; } } });
}

/** Pitch [deg] of the base about its own y axis. */
function pitchDeg(q: ArrayLike<number>): number {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  return (Math.asin(Math.max(-1, Math.min(1, 2 * (w * y - z * x)))) * 180) / Math.PI;
}

describe('Leo rocker differential (<mimic>)', () => {
  it('the rockers are revolute, coupled by the mimic row', async () => {
    const r = await leo(true);
    const right = r.robot.joints.find((j) => j.name === 'rocker_R_joint');
    expect(right?.type).toBe('revolute');
    expect(right?.mimic).toEqual({ joint: 'rocker_L_joint', multiplier: 1, offset: 0 });
  });

  it('on flat ground, accelerating and turning, the body stays level (|pitch| < 1°) with the row; without it it pitches > 5°', async () => {
    const worst: number[] = [];
    for (const withMimic of [true, false]) {
      const r = await leo(withMimic);
      const w = robotWorld(r.robot, flatGround());
      const base = w.bodies.indexOf(r.robot.base);
      const pitch = () => Math.abs(pitchDeg(w.bodies.rot.subarray(4 * base, 4 * base + 4)));
      run(w, 240);
      let max = pitch();
      w.setDrive(1, 0);
      for (let k = 0; k < 240 * 3; k++) { w.step(1); max = Math.max(max, pitch()); }
      w.setDrive(0, 1);
      for (let k = 0; k < 240 * 2; k++) { w.step(1); max = Math.max(max, pitch()); }
      expect(w.fault).toBeNull();
      worst.push(max);
    }
    expect(worst[0]).toBeLessThan(1);
    expect(worst[1]).toBeGreaterThan(5);
  }, 120_000);
});
