/**
 * Display units (renderer/app/units.ts) and the remembered display settings
 * (renderer/app/ui-settings.ts DisplaySettings): every unit's factor and symbol, rounding to the
 * resolution in each unit, NaN as "—", and parsing that keeps valid fields and drops the rest.
 */
import { describe, expect, it } from 'vitest';
import {
  decimalsFor,
  DEFAULT_UNITS,
  formatAxisValue,
  formatNumber,
  formatQuantity,
  formatVector,
  labelWithUnit,
  NO_VALUE,
  RESOLUTION,
  toDisplay,
  unitSymbol,
  type DisplayUnits,
} from '../../../renderer/app/units';
import { DEFAULT_DISPLAY_SETTINGS, DEFAULT_UI_SETTINGS, loadUiSettings, parseUiSettings, saveUiSettings } from '../../../renderer/app/ui-settings';
import { statusText } from '../../../renderer/app/status-text';
import { detailFields } from '../../../renderer/inspect/contact-fields';
import { COLORBLIND_CONTACT_COLORS, contactColor, contactPalette, cssColor, STANDARD_CONTACT_COLORS } from '../../../renderer/view3d/contact-style';
import { CONTACT_KIND_BODY_PAIR, CONTACT_KIND_CONVEX_TERRAIN } from '../../../sim/dynamics/frame-layout';
import type { ContactDetail } from '../../../renderer/inspect/contact-detail';
import type { WorldInfo } from '../../../sim/app/protocol';

const U = (length: DisplayUnits['length'], angle: DisplayUnits['angle'] = 'deg', force: DisplayUnits['force'] = 'N'): DisplayUnits => ({ length, angle, force });

describe('units: each unit', () => {
  it('lengths: 1.23456 m at 0.1 mm reads the same information in m, cm and mm', () => {
    expect(formatQuantity(U('m'), 'length', 1.23456, RESOLUTION.position)).toBe('1.2346 m');
    expect(formatQuantity(U('cm'), 'length', 1.23456, RESOLUTION.position)).toBe('123.46 cm');
    expect(formatQuantity(U('mm'), 'length', 1.23456, RESOLUTION.position)).toBe('1234.6 mm');
  });
  it('depths at 1 µm: 4.1234 mm', () => {
    expect(formatNumber(U('m'), 'length', 0.0041234, RESOLUTION.depth)).toBe('0.004123');
    expect(formatNumber(U('cm'), 'length', 0.0041234, RESOLUTION.depth)).toBe('0.4123');
    expect(formatNumber(U('mm'), 'length', 0.0041234, RESOLUTION.depth)).toBe('4.123');
  });
  it('angles: π/6 rad is 30.0° or 0.524 rad at 0.1°', () => {
    expect(formatQuantity(U('m', 'deg'), 'angle', Math.PI / 6, RESOLUTION.angle)).toBe('30.0 °');
    expect(formatQuantity(U('m', 'rad'), 'angle', Math.PI / 6, RESOLUTION.angle)).toBe('0.524 rad');
    expect(unitSymbol(U('m', 'deg'), 'angularSpeed')).toBe('°/s');
    expect(toDisplay(U('m', 'deg'), 'angularSpeed', Math.PI)).toBeCloseTo(180, 12);
  });
  it('forces: 1234.5 N is 1234.50 N or 1.23450 kN at 0.01 N; impulses and torques follow', () => {
    expect(formatQuantity(U('m', 'deg', 'N'), 'force', 1234.5, RESOLUTION.force)).toBe('1234.50 N');
    expect(formatQuantity(U('m', 'deg', 'kN'), 'force', 1234.5, RESOLUTION.force)).toBe('1.23450 kN');
    expect(unitSymbol(U('m', 'deg', 'kN'), 'impulse')).toBe('kN·s');
    expect(unitSymbol(U('m', 'deg', 'kN'), 'torque')).toBe('kN·m');
    expect(toDisplay(U('m', 'deg', 'kN'), 'torque', 2500)).toBeCloseTo(2.5, 12);
  });
  it('speeds stay in m/s whatever the length unit; counts have no unit', () => {
    expect(formatQuantity(U('cm'), 'speed', 0.5, RESOLUTION.speed)).toBe('0.500 m/s');
    expect(formatQuantity(U('mm'), 'speed', 1.008, RESOLUTION.speed)).toBe('1.008 m/s');
    expect(formatQuantity(U('mm'), 'count', 3, 1)).toBe('3');
    expect(labelWithUnit('contacts', U('mm'), 'count')).toBe('contacts');
    expect(labelWithUnit('depth', U('mm'), 'length')).toBe('depth mm');
  });
});

describe('units: rounding and missing values', () => {
  it('decimals resolve the resolution exactly at powers of ten', () => {
    expect(decimalsFor(1e-3, 1)).toBe(3);
    expect(decimalsFor(1e-3, 1000)).toBe(0);
    expect(decimalsFor(1e-3, 100)).toBe(1);
    expect(decimalsFor(0.02, 1)).toBe(2);
    expect(decimalsFor(5, 1)).toBe(0);
    expect(decimalsFor(1e-30, 1)).toBe(9); // capped
    expect(decimalsFor(0, 1)).toBe(0);
    expect(decimalsFor(NaN, 1)).toBe(0);
  });
  it('rounds half away as toFixed does, and a value that rounds to zero has no minus sign', () => {
    expect(formatNumber(U('m'), 'length', 0.00049, 1e-3)).toBe('0.000');
    expect(formatNumber(U('m'), 'length', -0.00049, 1e-3)).toBe('0.000');
    expect(formatNumber(U('m'), 'length', -0.0006, 1e-3)).toBe('-0.001');
    expect(formatNumber(U('mm'), 'length', -0.0004, 1e-3)).toBe('0');
  });
  it('NaN and infinities are shown as "—", alone and in vectors', () => {
    for (const u of [U('m'), U('cm', 'rad', 'kN'), U('mm')]) {
      expect(formatQuantity(u, 'length', NaN, 1e-3)).toBe(NO_VALUE);
      expect(formatQuantity(u, 'force', Infinity, 1e-3)).toBe(NO_VALUE);
      expect(formatNumber(u, 'angle', -Infinity, 1e-3)).toBe(NO_VALUE);
    }
    expect(NO_VALUE).toBe('—');
    expect(formatVector(U('m'), 'length', [1, NaN, 2], 1e-3)).toBe('1.000 — 2.000');
    expect(formatVector(U('m'), 'length', null, 1e-3)).toBe('—');
    expect(formatAxisValue(NaN)).toBe('—');
  });
  it('plot legend values keep about three significant figures', () => {
    expect(formatAxisValue(1234.4)).toBe('1234');
    expect(formatAxisValue(12.34)).toBe('12.3');
    expect(formatAxisValue(1.234)).toBe('1.23');
    expect(formatAxisValue(0.041234)).toBe('0.0412');
    expect(formatAxisValue(-0.5)).toBe('-0.500');
    expect(formatAxisValue(0)).toBe('0');
  });
});

describe('units in the readouts', () => {
  it('the status bar speed reads m/s in every length unit', () => {
    const base = { frame: { time: 1, step: 1, realtimeFactor: 1, speed: 0.5, contactInfo: new Int32Array(0) }, fps: 30, paused: false, timeScale: 1, host: 'web', softwareGL: false, terrainStride: 1, workerError: null, selection: null };
    expect(statusText(base)).toContain('speed 0.50 m/s');
    expect(statusText({ ...base, units: U('mm') })).toContain('speed 0.50 m/s');
    expect(statusText({ ...base, frame: { ...base.frame, speed: NaN } })).toContain('speed —');
  });
  it('the inspector labels and converts, the raw SI numbers stay exact', () => {
    const d: ContactDetail = {
      index: 0, step: 3, bodyA: 0, bodyB: -1, kind: 2, kindName: 'side', cellI: 1, cellJ: 2, element: 'rectangle',
      point: [1, 2, 0.5], normal: [0, 0, 1], depth: 0.0041234, normalImpulse: 0.5, t1Impulse: 0, t2Impulse: 0,
      normalForce: 1234.5, frictionForce: 10, slip: null, slipSpeed: null, normalSpeed: null,
    } as unknown as ContactDetail;
    const w = { bodies: [{ name: 'wheel', role: 'wheel', shape: { type: 'sphere', radius: 1 } }] } as unknown as WorldInfo;
    const field = (u: DisplayUnits, key: string): [string, string, string, number[]?] => detailFields(d, w, u).find((f) => f[0] === key)!;
    expect(field(U('mm'), 'depth').slice(1)).toEqual(['depth mm', '4.123', [0.0041234]]);
    expect(field(U('m'), 'depth').slice(1, 3)).toEqual(['depth m', '0.004123']);
    expect(field(U('m', 'deg', 'kN'), 'normalForce').slice(1, 3)).toEqual(['normal force kN', '1.23450']);
    expect(field(U('cm'), 'point').slice(1, 3)).toEqual(['point cm', '100.00 200.00 50.00']);
    expect(field(U('m'), 'slip')[2]).toBe('—');
  });
});

describe('contact palettes', () => {
  it('the colour-blind-safe palette gives every case its own colour, none white (the highlight)', () => {
    const kinds = [0, 1, 2, 3, 4, CONTACT_KIND_CONVEX_TERRAIN, CONTACT_KIND_BODY_PAIR];
    const colours = kinds.map((k) => cssColor(contactColor(k, COLORBLIND_CONTACT_COLORS)));
    expect(new Set(colours).size).toBe(kinds.length);
    expect(colours).not.toContain('#ffffff');
    expect(colours).toEqual(['#009e73', '#0072b2', '#f0e442', '#d55e00', '#cc79a7', '#e69f00', '#56b4e9']);
    expect(contactPalette('colorblind')).toBe(COLORBLIND_CONTACT_COLORS);
    expect(contactPalette('standard')).toBe(STANDARD_CONTACT_COLORS);
    expect(contactColor(2)).toBe(STANDARD_CONTACT_COLORS.wheel[2]);
  });
});

describe('display settings: parsing', () => {
  it('defaults: metres, degrees, newtons, standard palette, height colours, world axes on', () => {
    expect(DEFAULT_UI_SETTINGS.units).toEqual(DEFAULT_UNITS);
    expect(DEFAULT_UI_SETTINGS.units).toEqual({ length: 'm', angle: 'deg', force: 'N' });
    expect(parseUiSettings(null)).toMatchObject(DEFAULT_DISPLAY_SETTINGS);
    expect(DEFAULT_UI_SETTINGS.showWorldAxes).toBe(true);
  });
  it('keeps each valid field and drops the rest, unit by unit', () => {
    const s = parseUiSettings({
      showWorldAxes: false,
      units: { length: 'mm', angle: 'grad', force: 'kN' },
      contactPalette: 'colorblind',
      terrainColors: 'rainbow',
      background: '#A0B0C0',
      xray: true,
    });
    expect(s.showWorldAxes).toBe(false);
    expect(s.units).toEqual({ length: 'mm', angle: 'deg', force: 'kN' });
    expect(s.contactPalette).toBe('colorblind');
    expect(s.terrainColors).toBe('height');
    expect(s.background).toBe('#a0b0c0');
    expect(s.xray).toBe(true);
  });
  it('rejects wrong types and shapes without touching the other fields', () => {
    for (const bad of [
      { units: 'mm' },
      { units: ['mm'] },
      { units: null },
      { units: { length: 1 } },
      { background: 'red' },
      { background: '#abc' },
      { background: '#12345g' },
      { background: 0x9fc4e8 },
      { showWorldAxes: 'yes' },
      { contactPalette: 'Colorblind' },
      { terrainColors: ['plain'] },
    ]) {
      const s = parseUiSettings(bad);
      expect(s).toEqual(DEFAULT_UI_SETTINGS);
    }
  });
  it('round-trips through a store and does not share the default units object', () => {
    const mem = new Map<string, string>();
    const store = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v) };
    const s = loadUiSettings(store);
    s.units.length = 'cm';
    expect(DEFAULT_UI_SETTINGS.units.length).toBe('m');
    s.terrainColors = 'plain';
    s.background = '#101010';
    s.contactPalette = 'colorblind';
    saveUiSettings(store, s);
    const back = loadUiSettings(store);
    expect(back.units).toEqual({ length: 'cm', angle: 'deg', force: 'N' });
    expect(back).toMatchObject({ terrainColors: 'plain', background: '#101010', contactPalette: 'colorblind' });
  });
});
