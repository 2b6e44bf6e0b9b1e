/**
 * The wheel cast for a wheel that is already on the ground (the stepper's case: a rolling wheel
 * always touches, so a cast of the wheel itself reports toi 0). Casting a SKIN cylinder (radius
 * and half-width less a skin s) instead finds the first NEW obstacle — a curb ahead — at the
 * time the real wheel reaches it to depth ≤ s; the analytic wheel query at that pose gives the
 * curb's classified contacts. These tests pin that recipe for the stepper.
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { collideCylinderTerrainInto } from '../../../sim/collision/cylinder-terrain/collide';
import { CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
import { TerrainCastResult } from '../../../sim/collision/heightfield-cast/terrain-cast-result';
import { WheelCastWorkspace, castWheelHeightfield } from '../../../sim/collision/heightfield-cast/wheel-cast';
import { SweptStatus } from '../../../sim/collision/swept/swept-sphere';
import type { Vec3 } from '../../../sim/math/vec3';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import { Heightfield } from '../../../sim/terrain/heightfield';

// Flat ground at z = 0 for x < 1 m, a 0.1 m curb from x = 1 m on (a one-cell ramp 0.95–1.0 m).
const cols = 41, dx = 0.05;
const heights: number[] = [];
for (let j = 0; j < cols; j++) for (let i = 0; i < cols; i++) heights.push(i * dx >= 1 - 1e-9 ? 0.1 : 0);
const hf = Heightfield.fromArray({ cols, rows: cols, dx, dy: dx, x0: 0, y0: -1, heights });

const R = 0.3, W = 0.2, SKIN = 0.02;
const wheel = new CylinderShape(R, W);
const skin = new CylinderShape(R - SKIN, W - 2 * SKIN);
const axle: Vec3 = [0, 1, 0];
const ws = new CylinderTerrainWorkspace();
const wheelWs = new WheelCastWorkspace(ws);
const contacts = new ContactBuffer(64);
const out = new TerrainCastResult();

describe('wheel cast with a skin: a rolling wheel finds the curb ahead', () => {
  const start: Vec3 = [0.3, 0, R - 0.001]; // resting 1 mm deep on the ground
  const motion: Vec3 = [0.6, 0, 0]; // one step at 144 m/s (dt 1/240)
  it('the wheel itself reports toi 0: it touches the ground already', () => {
    contacts.clear();
    castWheelHeightfield(out, contacts, hf, start, axle, wheel, motion, wheelWs);
    expect(out.status).toBe(SweptStatus.InitiallyOverlapping);
    expect(out.toi).toBe(0);
  });
  it('the skin cylinder hits the curb edge; there the wheel touches it by ≤ the skin', () => {
    contacts.clear();
    castWheelHeightfield(out, contacts, hf, start, axle, skin, motion, wheelWs);
    expect(out.status).toBe(SweptStatus.Hit);
    // the curb's top edge is at x = 1, z = 0.1: the skin rim (r 0.28) reaches it at
    // centre x = 1 − √(0.28² − (0.299 − 0.1)²)
    const expected = (1 - Math.sqrt((R - SKIN) ** 2 - (R - 0.001 - 0.1) ** 2) - start[0]) / motion[0];
    expect(out.toi).toBeCloseTo(expected, 5);
    // the real wheel at that pose: a curb contact pushing back (−x), ≤ skin deep
    const c: Vec3 = [start[0] + out.toi * motion[0], 0, start[2]];
    const buf = new ContactBuffer(64);
    collideCylinderTerrainInto(buf, c, axle, wheel, hf, ws);
    let curb = 0;
    for (let k = 0; k < buf.count; k++) {
      if (buf.normal[3 * k] < -0.3) {
        curb++;
        expect(buf.depth[k]).toBeGreaterThan(0);
        // ≤ the skin radially; the curb face's own element-normal depth (element walls, #12)
        // reads about 1 mm more on this steep element
        expect(buf.depth[k]).toBeLessThanOrEqual(SKIN + 2e-3);
      }
    }
    expect(curb).toBeGreaterThan(0);
  });
});
