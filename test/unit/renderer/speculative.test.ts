/**
 * Speculative contacts (issue #30 item 3): left out of the contacts shown, counted apart with
 * their smallest gap; a frame without them is passed through untouched.
 */
import { describe, expect, it } from 'vitest';
import { touchingOnly } from '../../../renderer/inspect/speculative';
import type { Frame } from '../../../sim/app/protocol';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE } from '../../../sim/dynamics/frame-layout';

function frame(depths: number[]): Frame {
  const contacts = new Float32Array(depths.length * CONTACT_STRIDE), contactInfo = new Int32Array(depths.length * CONTACT_INFO_STRIDE);
  depths.forEach((d, k) => {
    contacts[CONTACT_STRIDE * k] = k; // x marks the contact
    contacts[CONTACT_STRIDE * k + 6] = d;
    contacts[CONTACT_STRIDE * k + 7] = d >= 0 ? 1 : 0;
    contactInfo[CONTACT_INFO_STRIDE * k + 1] = k;
  });
  return { step: 1, time: 0.005, poses: new Float32Array(0), velocities: new Float32Array(0), contacts, contactInfo, joints: new Float32Array(0), speed: 0, fault: null, realtimeFactor: 1 };
}

describe('speculative contacts', () => {
  it('are left out, counted, and their smallest gap kept', () => {
    const t = touchingOnly(frame([0.002, -0.004, 0, -0.001, 0.01]));
    expect(t.speculative).toBe(2);
    expect(t.minGap).toBeCloseTo(0.001, 6);
    expect(t.frame.contacts.length).toBe(3 * CONTACT_STRIDE);
    expect([0, 1, 2].map((k) => t.frame.contacts[CONTACT_STRIDE * k])).toEqual([0, 2, 4]);
    expect([0, 1, 2].map((k) => t.frame.contactInfo[CONTACT_INFO_STRIDE * k + 1])).toEqual([0, 2, 4]);
    for (let k = 0; k < 3; k++) expect(t.frame.contacts[CONTACT_STRIDE * k + 6]).toBeGreaterThanOrEqual(0);
  });

  it('a frame without them is the same object (nothing copied), and the result is cached', () => {
    const f = frame([0.001, 0]);
    expect(touchingOnly(f).frame).toBe(f);
    const g = frame([-0.1]);
    expect(touchingOnly(g)).toBe(touchingOnly(g));
    expect(touchingOnly(g).frame.contacts.length).toBe(0);
  });
});
