/**
 * contactInfo's Element field: the terrain element each terrain contact came from, classified by
 * the sim on the float64 heights. Checked against an independent classification (from the raw
 * heights, not the heightfield's cell bits) on a terrain with both planar cells (a ramp along x)
 * and split cells (bumps), and the recorder's copy of the frame equals the live one.
 */
import { describe, expect, it } from 'vitest';
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import { robotDriveController } from '../../../sim/robot/controllers/world-drive';
import type { BodySpec, WorldSpec } from '../../../sim/dynamics/spec';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { CONTACT_ELEMENT_NONE, CONTACT_INFO_STRIDE, CONTACT_STRIDE, ContactInfoField } from '../../../sim/dynamics/frame-layout';
import { FrameDecoder, StepCapture, newBatch } from '../../../sim/record/capture';
import { rover } from '../../scenarios/dynamics/helpers';

const N = 41, D = 0.1, X0 = -2, Y0 = -2;

function heights(): Float64Array {
  const h = new Float64Array(N * N);
  for (let j = 0; j < N; j++) {
    for (let i = 0; i < N; i++) {
      // x < 0: a ramp along x (every cell one planar rectangle); x ≥ 0: bumps (two triangles)
      h[j * N + i] = i <= 20 ? 0.01 * i : 0.2 + 0.04 * Math.sin(i * 0.9) * Math.cos(j * 0.7);
    }
  }
  return h;
}

/** 0 rectangle, 1 lower, 2 upper, from the raw heights (the paper's rule, exact equality). */
function classify(h: Float64Array, i: number, j: number, x: number, y: number): number {
  const h0 = h[j * N + i], h1 = h[j * N + i + 1], h2 = h[(j + 1) * N + i], h3 = h[(j + 1) * N + i + 1];
  if ((h1 === h0 && h3 === h2) || (h2 === h0 && h3 === h1)) return 0;
  const u = (x - X0) / D - i, v = (y - Y0) / D - j;
  return u + v <= 1 ? 1 : 2;
}

function world() {
  const h = heights();
  const terrain = Heightfield.fromArray({ cols: N, rows: N, dx: D, dy: D, x0: X0, y0: Y0, heights: h });
  const r = rover({ x: 0, z: 0.7 });
  const bodies: BodySpec[] = [...r.bodies];
  for (let k = 0; k < 10; k++) {
    bodies.push({ name: `ball${k}`, shape: { type: 'sphere', radius: 0.06 }, density: 2000, position: [-1.6 + 0.35 * k, 1.2 - 0.05 * k, 0.5 + 0.02 * k] });
    bodies.push({ name: `box${k}`, shape: { type: 'box', halfExtents: [0.05, 0.04, 0.03] }, density: 2000, position: [-1.5 + 0.33 * k, -1.2 + 0.04 * k, 0.5] });
  }
  bodies.push({ name: 'stack', shape: { type: 'box', halfExtents: [0.05, 0.04, 0.03] }, density: 2000, position: [-1.6, 1.2, 0.8] });
  const spec: WorldSpec = {
    name: 'elements', gravity: [0, 0, -9.81], dt: 1 / 240, substeps: 4, sleep: true, ccd: false,
    materials: { default: { friction: 0.9 } }, terrainMaterials: {}, bodies, joints: r.joints, robot: undefined, script: [],
  };
  const w = createDynamicsWorld(spec, terrain, robotDriveController);
  for (const d of w.joints.defs) if (d.motor) w.setMotor(d.name, 3);
  return { w, h };
}

describe('contactInfo element', () => {
  it('equals an independent classification of each terrain contact; −1 for body–body; the recorded frame equals the live one', () => {
    const { w, h } = world();
    const capture = new StepCapture({ changes: true });
    capture.attach(newBatch(64 << 20));
    const seen = [0, 0, 0];
    let bodyPairs = 0, checked = 0;
    const live: { contacts: Float64Array; info: Int32Array }[] = [];
    for (let s = 1; s <= 240; s++) {
      w.step(1);
      const f = w.frame();
      for (let k = 0; k < f.contactCount; k++) {
        const q = k * CONTACT_INFO_STRIDE, o = k * CONTACT_STRIDE;
        const el = f.contactInfo[q + ContactInfoField.Element];
        if (f.contactInfo[q + ContactInfoField.BodyB] >= 0) {
          expect(el).toBe(CONTACT_ELEMENT_NONE);
          bodyPairs++;
          continue;
        }
        const want = classify(h, f.contactInfo[q + ContactInfoField.CellI], f.contactInfo[q + ContactInfoField.CellJ], f.contacts[o], f.contacts[o + 1]);
        if (el !== want) throw new Error(`step ${s} contact ${k}: element ${el}, classified ${want}`);
        seen[el]++;
        checked++;
      }
      if (s % 10 === 0) {
        expect(capture.fits(capture.planFrame(s, w))).toBe(true);
        capture.frame(s, w);
        live.push({ contacts: f.contacts.slice(), info: f.contactInfo.slice() });
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen[1]).toBeGreaterThan(0);
    expect(seen[2]).toBeGreaterThan(0);
    expect(bodyPairs).toBeGreaterThan(0);
    // the capture of every 10th step decodes to the same contactInfo (element included)
    const b = capture.detach()!;
    const f64 = new Float64Array(b.buf, 0, b.used >> 3), i32 = new Int32Array(b.buf, 0, b.used >> 2), u8 = new Uint8Array(b.buf, 0, b.used);
    const dec = new FrameDecoder();
    let o = 0;
    for (const want of live) {
      o = dec.decode(f64, i32, u8, o);
      expect(Array.from(dec.frame.contactInfo)).toEqual(Array.from(want.info));
      expect(Array.from(dec.frame.contacts)).toEqual(Array.from(want.contacts));
    }
  });
});
