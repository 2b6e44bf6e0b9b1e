/**
 * A scale bar's length and label in the chosen length unit (app/units.ts): the longest round
 * length (1, 2 or 5 × a power of ten of the display unit) that fits, labelled with as many
 * decimals as that power needs ("0.05 m", "5 cm", "50 mm", "0.2 mm"). Pure; the manifold view
 * (manifold-view.ts) draws it. Unit-tested.
 */
import { unitOf, type DisplayUnits } from '../app/units';

export interface ScaleBar {
  /** [m] Length of the bar. */
  metres: number;
  /** The length in the display unit, with its symbol. */
  label: string;
}

/** Relative slack so that a length that is exactly round (0.1 m in cm = 10) is not taken as just below it. */
const ROUND_EPS = 1e-9;

/**
 * The scale bar for at most `maxMetres` [m] in `units`' length unit, or null when `maxMetres` is
 * not a positive finite length.
 */
export function scaleBar(units: DisplayUnits, maxMetres: number): ScaleBar | null {
  if (!(maxMetres > 0) || !Number.isFinite(maxMetres)) return null;
  const { factor, symbol } = unitOf(units, 'length');
  const target = maxMetres * factor * (1 + ROUND_EPS);
  let exp = Math.floor(Math.log10(target));
  // log10 may land just below an integer (999.9… for 1000): correct the power either way.
  if (10 ** (exp + 1) <= target) exp++;
  if (10 ** exp > target) exp--;
  const mag = 10 ** exp;
  const mult = target >= 5 * mag ? 5 : target >= 2 * mag ? 2 : 1;
  const decimals = Math.max(0, -exp);
  // mult × 10^exp written exactly: 5 × 10^-2 as "0.05", never 0.05000000000000001.
  const value = exp >= 0 ? mult * mag : mult / 10 ** -exp;
  return { metres: value / factor, label: `${value.toFixed(decimals)} ${symbol}` };
}
