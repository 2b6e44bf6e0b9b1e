/**
 * How a contact is drawn: colour by the algorithm case that produced it (sim/collision/contact.ts
 * WheelContactKind) and normal segment length from depth, or from normal force at a numeric
 * scale (fixed, or automatic: AutoForceScale). Pure: no three.
 */
import { CONTACT_KIND_CONVEX_TERRAIN } from '../../sim/dynamics/frame-layout';
import { CONTACT_FORCE_AUTO_HOLD_FRAMES, CONTACT_FORCE_AUTO_LENGTH, CONTACT_FORCE_MAX_LENGTH, CONTACT_FORCE_SCALE_DEFAULT, CONTACT_FORCE_SCALE_MIN, CONTACT_NORMAL_MAX_LENGTH, CONTACT_NORMAL_MIN_LENGTH, CONTACT_NORMAL_SCALE } from '../config';

/** rgb in 0..1, indexed by WheelContactKind: flat, base (A), side (B), point (C), edge/vertex. */
export const WHEEL_KIND_COLORS: readonly (readonly [number, number, number])[] = [
  [0.2, 0.85, 0.3],
  [0.25, 0.55, 1.0],
  [1.0, 0.85, 0.15],
  [1.0, 0.3, 0.25],
  [0.85, 0.35, 1.0],
];

/** Body–body contacts and unknown kinds. */
export const OTHER_CONTACT_COLOR: readonly [number, number, number] = [0.1, 0.95, 0.95];
/** A non-cylinder shape on the terrain (GJK/EPA per element). */
export const CONVEX_TERRAIN_COLOR: readonly [number, number, number] = [0.95, 0.6, 0.2];

/** The colours of the contact cases: one per WheelContactKind, shape on terrain, and the rest. */
export interface ContactColors {
  wheel: readonly (readonly [number, number, number])[];
  convexTerrain: readonly [number, number, number];
  other: readonly [number, number, number];
}

/** The original palette (green, blue, yellow, red, violet; orange; cyan). */
export const STANDARD_CONTACT_COLORS: ContactColors = { wheel: WHEEL_KIND_COLORS, convexTerrain: CONVEX_TERRAIN_COLOR, other: OTHER_CONTACT_COLOR };

/** sRGB byte → 0..1. */
const b = (r: number, g: number, bl: number): readonly [number, number, number] => [r / 255, g / 255, bl / 255];

/**
 * Okabe & Ito's colour-blind-safe set ("Color Universal Design", 2008): the seven hues stay
 * distinct under protanopia, deuteranopia and tritanopia. Flat bluish green, base (A) blue, side
 * (B) yellow, point (C) vermillion, edge/vertex reddish purple, shape on terrain orange, body–body
 * sky blue. White stays the highlight.
 */
export const COLORBLIND_CONTACT_COLORS: ContactColors = {
  wheel: [b(0, 158, 115), b(0, 114, 178), b(240, 228, 66), b(213, 94, 0), b(204, 121, 167)],
  convexTerrain: b(230, 159, 0),
  other: b(86, 180, 233),
};

/** The palette a setting names (renderer/app/ui-settings.ts ContactPalette). */
export function contactPalette(name: 'standard' | 'colorblind'): ContactColors {
  return name === 'colorblind' ? COLORBLIND_CONTACT_COLORS : STANDARD_CONTACT_COLORS;
}

/** Colour of a contact by its frame kind (WheelContactKind 0–4, 8 other shape–terrain, 9 body–body). */
export function contactColor(kind: number, palette: ContactColors = STANDARD_CONTACT_COLORS): readonly [number, number, number] {
  if (kind === CONTACT_KIND_CONVEX_TERRAIN) return palette.convexTerrain;
  return palette.wheel[kind] ?? palette.other;
}

/** "#rrggbb" of an rgb in 0..1 (the help legend's swatches). */
export function cssColor(rgb: readonly [number, number, number]): string {
  return `#${rgb.map((c) => Math.round(Math.max(0, Math.min(1, c)) * 255).toString(16).padStart(2, '0')).join('')}`;
}

/** [m] Drawn normal length for a penetration depth (clamped; NaN → minimum). */
export function normalLength(depth: number): number {
  const len = depth * CONTACT_NORMAL_SCALE;
  if (!(len > CONTACT_NORMAL_MIN_LENGTH)) return CONTACT_NORMAL_MIN_LENGTH;
  return len < CONTACT_NORMAL_MAX_LENGTH ? len : CONTACT_NORMAL_MAX_LENGTH;
}

/**
 * [m] Drawn force arrow length for a normal force [N] at a scale of `newtonsPerMetre`: force /
 * scale, at least CONTACT_NORMAL_MIN_LENGTH (so a touching contact still shows its normal), at
 * most CONTACT_FORCE_MAX_LENGTH; NaN → the minimum.
 */
export function normalLengthForForce(force: number, newtonsPerMetre = CONTACT_FORCE_SCALE_DEFAULT): number {
  const len = force / newtonsPerMetre;
  if (!(len > CONTACT_NORMAL_MIN_LENGTH)) return CONTACT_NORMAL_MIN_LENGTH;
  return len < CONTACT_FORCE_MAX_LENGTH ? len : CONTACT_FORCE_MAX_LENGTH;
}

/** Relative tolerance of comparisons between values of the 1-2-5 series (products of powers of ten). */
const NICE_EPS = 1e-9;

/** The smallest value of the 1-2-5 series (…, 0.5, 1, 2, 5, 10, 20, …) that is ≥ x (x > 0; else 1). */
export function niceAtLeast(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const decade = 10 ** Math.floor(Math.log10(x));
  const limit = x * (1 - NICE_EPS);
  if (decade >= limit) return decade;
  if (2 * decade >= limit) return 2 * decade;
  if (5 * decade >= limit) return 5 * decade;
  return 10 * decade;
}

/** The 1-2-5 series' value just below `nice` (a value of the series). */
function niceBelow(nice: number): number {
  const decade = 10 ** Math.floor(Math.log10(nice) + NICE_EPS);
  const m = Math.round(nice / decade);
  return m === 1 ? decade / 2 : m === 2 ? decade : 2 * decade;
}

/**
 * The automatic force scale [N/m]: a round number (1-2-5 series) at which the largest normal
 * force of a frame is drawn at most CONTACT_FORCE_AUTO_LENGTH long. It rises at once when a
 * frame needs it and falls one step only after CONTACT_FORCE_AUTO_HOLD_FRAMES frames in a row that
 * all needed less, so the number in the legend holds still while a robot drives. A frame without
 * contacts holds the scale. Pure; allocates nothing.
 */
export class AutoForceScale {
  /** [N/m] The scale now. */
  value = CONTACT_FORCE_SCALE_DEFAULT;
  private calm = 0;

  /** Takes a frame's largest normal force [N] (0 when none) and returns the scale to draw it at. */
  update(maxForce: number): number {
    if (!(maxForce > 0) || !Number.isFinite(maxForce)) return this.value; // nothing to scale: hold
    const need = niceAtLeast(maxForce / CONTACT_FORCE_AUTO_LENGTH);
    if (need > this.value * (1 + NICE_EPS)) {
      this.value = need;
      this.calm = 0;
    } else if (need >= this.value * (1 - NICE_EPS)) {
      this.calm = 0;
    } else if (++this.calm >= CONTACT_FORCE_AUTO_HOLD_FRAMES) {
      this.value = Math.max(need, niceBelow(this.value), CONTACT_FORCE_SCALE_MIN);
      this.calm = 0;
    }
    return this.value;
  }

  reset(): void {
    this.value = CONTACT_FORCE_SCALE_DEFAULT;
    this.calm = 0;
  }
}
