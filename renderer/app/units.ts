/**
 * Display units: the one place where the renderer turns SI values (what the worker, the inspector
 * logic and the plot samplers hold) into the text people read. The settings choose a length unit
 * (m, cm, mm: depths and positions), an angle unit (deg, rad) and a force unit (N, kN); angular
 * speeds, impulses and torques derive from them (°/s, N·s, N·m, …). Speeds stay in m/s whatever
 * the length unit: a robot's 1 m/s read "1008 mm/s" in mm (issue #30), and a millimetre unit is
 * chosen to read depths and positions, not speeds. The inspector, the
 * entity panel, the status bar and the plot legends all format through here, so a unit change
 * reaches every readout at once. Pure; unit-tested.
 *
 * Precision is given in SI (the smallest step worth showing: 1e-3 m for a position, 1e-6 m for a
 * depth, 0.1° for an attitude), and the number of decimals follows from the chosen unit, so a
 * position reads "1.234 m", "123.4 cm" or "1234 mm": the same information in each unit.
 * A value that is not finite is shown as "—"; a value that rounds to zero never shows as "-0".
 */

export type LengthUnit = 'm' | 'cm' | 'mm';
export type AngleUnit = 'deg' | 'rad';
export type ForceUnit = 'N' | 'kN';

export interface DisplayUnits {
  length: LengthUnit;
  angle: AngleUnit;
  force: ForceUnit;
}

export const LENGTH_UNITS: readonly LengthUnit[] = ['m', 'cm', 'mm'];
export const ANGLE_UNITS: readonly AngleUnit[] = ['deg', 'rad'];
export const FORCE_UNITS: readonly ForceUnit[] = ['N', 'kN'];

export const DEFAULT_UNITS: Readonly<DisplayUnits> = { length: 'm', angle: 'deg', force: 'N' };

/** What a number measures (its SI unit in brackets). */
export type Quantity =
  | 'length' // [m]
  | 'angle' // [rad]
  | 'force' // [N]
  | 'speed' // [m/s]
  | 'angularSpeed' // [rad/s]
  | 'impulse' // [N·s]
  | 'torque' // [N·m]
  | 'count'; // [-]

/** Shown for a value that is not a finite number. */
export const NO_VALUE = '—';

/** Most decimals ever printed (a resolution below 1e-9 of the display unit is not meaningful here). */
const MAX_DECIMALS = 9;

const LENGTH: Record<LengthUnit, number> = { m: 1, cm: 100, mm: 1000 };
const ANGLE: Record<AngleUnit, [number, string]> = { deg: [180 / Math.PI, '°'], rad: [1, 'rad'] };
const FORCE: Record<ForceUnit, number> = { N: 1, kN: 1e-3 };

/** Display value per SI unit of `q` and the unit's symbol. */
export function unitOf(u: DisplayUnits, q: Quantity): { factor: number; symbol: string } {
  const a = ANGLE[u.angle];
  switch (q) {
    case 'length':
      return { factor: LENGTH[u.length], symbol: u.length };
    case 'angle':
      return { factor: a[0], symbol: a[1] };
    case 'force':
      return { factor: FORCE[u.force], symbol: u.force };
    case 'speed':
      return { factor: 1, symbol: 'm/s' };
    case 'angularSpeed':
      return { factor: a[0], symbol: `${a[1]}/s` };
    case 'impulse':
      return { factor: FORCE[u.force], symbol: `${u.force}·s` };
    case 'torque':
      return { factor: FORCE[u.force], symbol: `${u.force}·m` };
    case 'count':
      return { factor: 1, symbol: '' };
  }
}

/** The unit's symbol ('' for counts): for column headers and labels. */
export function unitSymbol(u: DisplayUnits, q: Quantity): string {
  return unitOf(u, q).symbol;
}

/** SI value → display value (non-finite passes through). */
export function toDisplay(u: DisplayUnits, q: Quantity, si: number): number {
  return si * unitOf(u, q).factor;
}

/** Decimals that resolve `resolution` (SI) in a unit `factor` display units per SI unit. */
export function decimalsFor(resolution: number, factor: number): number {
  const step = resolution * factor;
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  // 1e-12 keeps an exact power of ten (0.001 → 3) from rounding up to the next decimal.
  const d = Math.ceil(-Math.log10(step) - 1e-12);
  return d <= 0 ? 0 : d > MAX_DECIMALS ? MAX_DECIMALS : d;
}

function fixed(v: number, decimals: number): string {
  const s = v.toFixed(decimals);
  // "-0.000" → "0.000": a value that rounds to zero has no sign.
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

/**
 * The number (no unit) of an SI value `si` of quantity `q` in units `u`, to `resolution` (SI).
 * Not finite → "—".
 */
export function formatNumber(u: DisplayUnits, q: Quantity, si: number, resolution: number): string {
  if (!Number.isFinite(si)) return NO_VALUE;
  const { factor } = unitOf(u, q);
  return fixed(si * factor, decimalsFor(resolution, factor));
}

/** "1.234 m", "12.3 °"… (the number and its unit; "—" alone when not finite). */
export function formatQuantity(u: DisplayUnits, q: Quantity, si: number, resolution: number): string {
  const n = formatNumber(u, q, si, resolution);
  const s = unitSymbol(u, q);
  return n === NO_VALUE || s === '' ? n : `${n} ${s}`;
}

/** Components of a vector, space-separated, no unit ("—" for a missing vector). */
export function formatVector(u: DisplayUnits, q: Quantity, v: readonly number[] | null | undefined, resolution: number): string {
  if (!v) return NO_VALUE;
  return v.map((x) => formatNumber(u, q, x, resolution)).join(' ');
}

/** "label unit" for a table header or row label ("depth mm", "contacts"). */
export function labelWithUnit(label: string, u: DisplayUnits, q: Quantity): string {
  const s = unitSymbol(u, q);
  return s ? `${label} ${s}` : label;
}

/**
 * A plot legend value (already in display units): about three significant figures, like a
 * chart axis ("1234", "12.3", "0.0412"), "—" when not finite.
 */
export function formatAxisValue(v: number): string {
  if (!Number.isFinite(v)) return NO_VALUE;
  const a = Math.abs(v);
  if (a >= 100 || a === 0) return fixed(v, 0);
  if (a >= 10) return fixed(v, 1);
  if (a >= 1) return fixed(v, 2);
  // below 1: three significant figures
  return fixed(v, Math.min(MAX_DECIMALS, 2 - Math.floor(Math.log10(a))));
}

/** Resolutions [SI] the panels use, named so the same readout has the same precision everywhere. */
export const RESOLUTION = {
  /** [m] Positions and contact points: 0.1 mm. */
  position: 1e-4,
  /** [m] Penetration depth: 1 µm. */
  depth: 1e-6,
  /** [m/s] Velocities and slip: 1 mm/s. */
  speed: 1e-3,
  /** [rad] Attitude and joint angles: about 0.1°. */
  angle: (0.1 * Math.PI) / 180,
  /** [rad/s] Angular velocities: 1 mrad/s. */
  angularSpeed: 1e-3,
  /** [N] Forces: 0.01 N. */
  force: 1e-2,
  /** [N·s] Impulses: 1 µN·s. */
  impulse: 1e-6,
  /** [N·m] Torques: 0.01 N·m. */
  torque: 1e-2,
} as const;
