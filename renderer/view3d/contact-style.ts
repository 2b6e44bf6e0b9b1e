/**
 * How a contact is drawn: colour by the algorithm case that produced it (sim/collision/contact.ts
 * WheelContactKind) and normal segment length from depth. Pure: no three.
 */
import { CONTACT_KIND_CONVEX_TERRAIN } from '../../sim/dynamics/spec';
import { CONTACT_NORMAL_FORCE_SCALE, CONTACT_NORMAL_MAX_LENGTH, CONTACT_NORMAL_MIN_LENGTH, CONTACT_NORMAL_SCALE } from '../config';

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

/** Colour of a contact by its frame kind (WheelContactKind 0–4, 8 other shape–terrain, 9 body–body). */
export function contactColor(kind: number): readonly [number, number, number] {
  if (kind === CONTACT_KIND_CONVEX_TERRAIN) return CONVEX_TERRAIN_COLOR;
  return WHEEL_KIND_COLORS[kind] ?? OTHER_CONTACT_COLOR;
}

/** [m] Drawn normal length for a penetration depth (clamped; NaN → minimum). */
export function normalLength(depth: number): number {
  const len = depth * CONTACT_NORMAL_SCALE;
  if (!(len > CONTACT_NORMAL_MIN_LENGTH)) return CONTACT_NORMAL_MIN_LENGTH;
  return len < CONTACT_NORMAL_MAX_LENGTH ? len : CONTACT_NORMAL_MAX_LENGTH;
}

/** [m] Drawn normal length for a normal force [N] (clamped like normalLength; NaN → minimum). */
export function normalLengthForForce(force: number): number {
  const len = force * CONTACT_NORMAL_FORCE_SCALE;
  if (!(len > CONTACT_NORMAL_MIN_LENGTH)) return CONTACT_NORMAL_MIN_LENGTH;
  return len < CONTACT_NORMAL_MAX_LENGTH ? len : CONTACT_NORMAL_MAX_LENGTH;
}
