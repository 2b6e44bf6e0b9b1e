/**
 * The manifold view's scale bar (renderer/panels/scale-bar.ts): the length and label follow the
 * settings' length unit (m, cm, mm). Analytic cases per unit, exact round lengths, and a seeded
 * property over the widths a panel can have: the bar fits, is at least 1/2.5 of the room, is
 * 1, 2 or 5 × a power of ten of the display unit, and its label reads its length.
 */
import { describe, expect, it } from 'vitest';
import { scaleBar } from '../../../renderer/panels/scale-bar';
import { LENGTH_UNITS, toDisplay, type DisplayUnits, type LengthUnit } from '../../../renderer/app/units';
import { Rng } from '../../../sim/math/random';

const U = (length: LengthUnit): DisplayUnits => ({ length, angle: 'deg', force: 'N' });
const label = (length: LengthUnit, max: number): string | undefined => scaleBar(U(length), max)?.label;

describe('scale bar: follows the length unit', () => {
  it('a 7 cm room: 0.05 m, 5 cm, 50 mm (the same bar)', () => {
    expect(label('m', 0.07)).toBe('0.05 m');
    expect(label('cm', 0.07)).toBe('5 cm');
    expect(label('mm', 0.07)).toBe('50 mm');
    for (const u of LENGTH_UNITS) expect(scaleBar(U(u), 0.07)!.metres).toBeCloseTo(0.05, 15);
  });

  it('small and large rooms: decimals as the round length needs, no float noise', () => {
    expect(label('m', 0.0123)).toBe('0.01 m');
    expect(label('cm', 0.0123)).toBe('1 cm');
    expect(label('mm', 0.0123)).toBe('10 mm');
    expect(label('mm', 0.0009)).toBe('0.5 mm');
    expect(label('cm', 0.0009)).toBe('0.05 cm');
    expect(label('m', 0.0009)).toBe('0.0005 m');
    expect(label('mm', 0.00031)).toBe('0.2 mm');
    expect(label('m', 3.7)).toBe('2 m');
    expect(label('cm', 3.7)).toBe('200 cm');
  });

  it('a room of exactly a round length takes it whole', () => {
    expect(label('m', 0.1)).toBe('0.1 m');
    expect(label('cm', 0.1)).toBe('10 cm');
    expect(label('mm', 0.1)).toBe('100 mm');
    expect(label('mm', 1)).toBe('1000 mm');
    expect(label('cm', 0.02)).toBe('2 cm');
    expect(label('mm', 0.005)).toBe('5 mm');
    // 1e-6 m × 100 is 9.999…e-5 in floating point: still one round 0.0001 cm
    expect(label('cm', 1e-6)).toBe('0.0001 cm');
    expect(label('cm', 5e-7)).toBe('0.00005 cm');
  });

  it('no bar for a room that is not a positive finite length', () => {
    for (const x of [0, -0.1, Number.NaN, Number.POSITIVE_INFINITY]) expect(scaleBar(U('mm'), x)).toBeNull();
  });

  it('seeded widths: fits, ≥ 1/2.5 of the room, 1-2-5 in the unit, the label reads the length', () => {
    const rng = new Rng(17);
    for (let n = 0; n < 2000; n++) {
      const max = 10 ** rng.range(-5, 2);
      for (const u of LENGTH_UNITS) {
        const b = scaleBar(U(u), max)!;
        expect(b.metres).toBeLessThanOrEqual(max * (1 + 1e-9));
        expect(b.metres).toBeGreaterThan(max / 2.5);
        const m = /^(\d+(?:\.\d+)?) (m|cm|mm)$/.exec(b.label)!;
        expect(m[2]).toBe(u);
        const shown = Number(m[1]);
        expect(shown).toBeCloseTo(toDisplay(U(u), 'length', b.metres), 9);
        // the significant digits are one of 1, 2, 5 (then zeros)
        expect(m[1].replace('.', '').replace(/^0+/, '')).toMatch(/^[125]0*$/);
      }
    }
  });
});
