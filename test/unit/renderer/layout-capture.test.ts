/**
 * The pure parts of the layout and capture work (issue #30): panel sizes clamped to the window and
 * kept in settings, the contact JSON, capture file names and the WebM container choice.
 */
import { describe, expect, it } from 'vitest';
import { clampSize, PLOTS_MIN_PX, SIDEBAR_MIN_PX, VIEW_MIN_WIDTH_PX } from '../../../renderer/app/panel-resize';
import { parseUiSettings } from '../../../renderer/app/ui-settings';
import { contactJson, CONTACT_JSON_FORMAT } from '../../../renderer/inspect/contact-json';
import type { ContactDetail } from '../../../renderer/inspect/contact-detail';
import { captureName, webmMimeType } from '../../../renderer/app/capture';
import type { WorldInfo } from '../../../sim/app/protocol';

describe('panel sizes', () => {
  it('are clamped between the panel minimum and what leaves the 3D view its room', () => {
    expect(clampSize(undefined, SIDEBAR_MIN_PX, 1280, VIEW_MIN_WIDTH_PX)).toBeNull();
    expect(clampSize(500, SIDEBAR_MIN_PX, 1280, VIEW_MIN_WIDTH_PX)).toBe(500);
    expect(clampSize(100, SIDEBAR_MIN_PX, 1280, VIEW_MIN_WIDTH_PX)).toBe(SIDEBAR_MIN_PX);
    // saved on a 4K screen, opened on 1280 px: the view keeps VIEW_MIN_WIDTH_PX
    expect(clampSize(2000, SIDEBAR_MIN_PX, 1280, VIEW_MIN_WIDTH_PX)).toBe(1280 - VIEW_MIN_WIDTH_PX);
    expect(clampSize(NaN, PLOTS_MIN_PX, 800, 260)).toBeNull();
  });

  it('persist in the UI settings; corrupt entries are dropped', () => {
    expect(parseUiSettings({}).panelSizes).toEqual({});
    expect(parseUiSettings({ panelSizes: { sidebar: 420.4, plots: 300 } }).panelSizes).toEqual({ sidebar: 420, plots: 300 });
    expect(parseUiSettings({ panelSizes: { sidebar: -1, plots: 'big', other: 5 } }).panelSizes).toEqual({});
    expect(parseUiSettings({ panelSizes: [300] }).panelSizes).toEqual({});
    expect(parseUiSettings({ panelSizes: { sidebar: 1e9 } }).panelSizes).toEqual({});
  });
});

describe('contact JSON', () => {
  const world = { scenarioName: 'Rolling hills', bodies: [{ name: 'wheel_fl', role: 'wheel', shape: { type: 'sphere', radius: 1 } }] } as unknown as WorldInfo;
  const d: ContactDetail = {
    index: 3, step: 120, kind: 1, kindName: 'base (A)', bodyA: 0, bodyB: -1, cellI: 4, cellJ: 5, element: 'rectangle',
    point: [1.25, -2.5, 0.125], normal: [0, 0, 1], depth: 0.001, normalImpulse: 0.5, t1Impulse: 0.1, t2Impulse: -0.2,
    normalForce: 100, frictionForce: 44.7, slip: [0.01, 0, 0], slipSpeed: 0.01, normalSpeed: null,
  };

  it('carries every field of the detail in SI, the bodies by name, and round-trips through JSON', () => {
    const j = contactJson(d, world, 0.6);
    expect(j).toMatchObject({
      format: CONTACT_JSON_FORMAT, scenario: 'Rolling hills', step: 120, time_s: 0.6, index: 3, bodyA: 'wheel_fl', bodyB: 'terrain',
      case: 'base (A)', cell: [4, 5], element: 'rectangle', point_m: [1.25, -2.5, 0.125], depth_m: 0.001,
      frictionImpulse_Ns: [0.1, -0.2], normalForce_N: 100, slip_mps: [0.01, 0, 0], normalSpeed_mps: null,
    });
    expect(JSON.parse(JSON.stringify(j))).toEqual(j);
  });

  it('writes null, not NaN (which JSON cannot hold)', () => {
    const j = contactJson({ ...d, depth: NaN, slip: null, cellI: -1 }, world, 0.6);
    expect(j.depth_m).toBeNull();
    expect(j.slip_mps).toBeNull();
    expect(j.cell).toBeNull();
  });
});

describe('capture', () => {
  it('names files after the scenario and the time', () => {
    expect(captureName('Rolling hills', new Date(Date.UTC(2026, 11, 7, 2, 30, 5)))).toBe('rolling-hills-2026-12-07T02-30-05');
    expect(captureName('../../etc', new Date(0))).toBe('etc-1970-01-01T00-00-00');
    expect(captureName('***', new Date(0))).toBe('terrawheel-1970-01-01T00-00-00');
  });

  it('picks the first WebM type the recorder supports', () => {
    expect(webmMimeType((t) => t === 'video/webm;codecs=vp8' || t === 'video/webm')).toBe('video/webm;codecs=vp8');
    expect(webmMimeType(() => false)).toBe('');
  });
});
