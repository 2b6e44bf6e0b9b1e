/**
 * The views' pure parts (issue #30): the material map baked to a raster as the simulation looks
 * materials up (sandhill: a sand disc in grass), the contour interval, and the robot the chase
 * camera frames (the base and every body joined to it, a trailer included; obstacles not).
 */
import { describe, expect, it } from 'vitest';
import { bakeMaterialRaster, contourInterval, materialColor, MATERIAL_COLORS } from '../../../renderer/view3d/material-colors';
import { RobotFraming, robotBodies } from '../../../renderer/view3d/robot-framing';
import type { BodyInfo, JointInfo } from '../../../sim/app/protocol';

describe('material colours', () => {
  const extent = { x0: -30, y0: -30, width: 60, height: 60 };
  it('sandhill: grass with a sand disc of 4 m at (-2, 3); texels at and away from it', () => {
    const r = bakeMaterialRaster({ material: 'grass', regions: [{ material: 'sand', shape: 'circle', center: [-2, 3], radius: 4 }] }, extent)!;
    expect(r.tinted).toEqual(['grass', 'sand']);
    const texel = (x: number, y: number): number => {
      const c = Math.floor(((x - extent.x0) / extent.width) * r.cols), w = Math.floor(((y - extent.y0) / extent.height) * r.rows);
      const o = 4 * (w * r.cols + c);
      expect(r.data[o + 3]).toBe(255);
      return (r.data[o] << 16) | (r.data[o + 1] << 8) | r.data[o + 2];
    };
    expect(texel(-2, 3)).toBe(MATERIAL_COLORS.sand);
    expect(texel(-2 + 3.5, 3)).toBe(MATERIAL_COLORS.sand);
    expect(texel(-2 + 4.5, 3)).toBe(MATERIAL_COLORS.grass);
    expect(texel(20, -20)).toBe(MATERIAL_COLORS.grass);
  });
  it('the "default" material is not tinted: a map of only it bakes nothing; a region of it is transparent', () => {
    expect(bakeMaterialRaster(undefined, extent)).toBeNull();
    expect(bakeMaterialRaster({ material: 'default', regions: [] }, extent)).toBeNull();
    const r = bakeMaterialRaster({ material: 'asphalt', regions: [{ material: 'default', shape: 'rect', min: [-30, -30], max: [0, 30] }] }, extent)!;
    expect(r.data[3]).toBe(0); // first texel: x < 0
    expect(r.data[4 * (r.cols - 1) + 3]).toBe(255);
  });
  it('an unknown material gets a stable colour of its own', () => {
    expect(materialColor('lunar_regolith')).toBe(materialColor('lunar_regolith'));
    expect(materialColor('lunar_regolith')).not.toBe(materialColor('martian_dust'));
    expect(materialColor('Sand')).toBe(MATERIAL_COLORS.sand);
  });
  it('contour interval: round, about 15 lines', () => {
    expect(contourInterval(3)).toBe(0.2);
    expect(contourInterval(0.3)).toBe(0.02);
    expect(contourInterval(100)).toBe(10);
    expect(contourInterval(0)).toBe(0);
  });
});

describe('robot framing', () => {
  const box = { type: 'box', halfExtents: [0.5, 0.3, 0.1] } as BodyInfo['shape'];
  const wheel = { type: 'cylinder', radius: 0.2, height: 0.1 } as BodyInfo['shape'];
  const bodies: BodyInfo[] = [
    { name: 'base', role: 'chassis', shape: box },
    { name: 'w', role: 'wheel', shape: wheel },
    { name: 'trailer', role: 'chassis', shape: box },
    { name: 'barrel', role: 'obstacle', shape: wheel },
  ];
  const joints: JointInfo[] = [
    { name: 'axle', type: 'revolute', bodyA: 0, bodyB: 1, motor: true },
    { name: 'hitch', type: 'ball', bodyA: 2, bodyB: 0, motor: false },
  ];
  it('the robot is the base and everything joined to it, not the obstacle', () => {
    expect(robotBodies({ baseBody: 0, bodies, joints })).toEqual([0, 1, 2]);
    expect(robotBodies({ baseBody: -1, bodies, joints })).toEqual([]);
  });
  it('the box spans the trailer: centre between base and trailer, radius past both', () => {
    const f = new RobotFraming();
    f.setWorld({ baseBody: 0, bodies, joints });
    const poses = new Float32Array([0, 0, 0.3, 0, 0, 0, 1, 0.4, 0.3, 0.2, 0, 0, 0, 1, -2, 0, 0.3, 0, 0, 0, 1, 9, 9, 0, 0, 0, 0, 1]);
    expect(f.update(poses)).toBe(true);
    // x from the trailer's far end (−2 − its bounding radius) to the wheel's (0.4 + its bounding radius)
    const rBox = Math.hypot(0.5, 0.3, 0.1), rWheel = Math.hypot(0.2, 0.05);
    expect(f.cx).toBeCloseTo((-2 - rBox + 0.4 + rWheel) / 2, 5);
    expect(f.radius).toBeGreaterThan(1.5);
    // a one-body robot is not framed (the camera follows its base as before)
    f.setWorld({ baseBody: 3, bodies, joints: [] });
    expect(f.update(poses)).toBe(false);
  });
});
