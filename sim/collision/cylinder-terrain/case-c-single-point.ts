/**
 * Case C — one rim point dips into an element (Strashnov & Torgashev 2020, §IV.C, eqs. 11–12):
 * s(A_L) > 0, s(A_U) < 0, s(B_L) < 0 — a tilted base rim touches the plane at one point.
 *
 * The paper emits {A_L, s(A_L), n_P} when A_L's foot lies in the element and otherwise leaves the
 * element to the second pass. That misses the depth when the foot of A_L falls just outside the
 * element but part of the lowest line below the plane still projects into it (a rim resting
 * across a seam of two bent elements). So the lowest line is clipped to its below-plane part
 * t ∈ [0, s(A_L)/(s(A_L) − s(A_U))] with the same Cyrus–Beck as case B, and its deepest
 * remaining point — the start of the clipped piece — is the single contact. When the foot of A_L
 * is inside, this is exactly the paper's point. A start on a flat internal seam is skipped: the
 * coplanar neighbour holds the deeper part of the line.
 *
 * The same routine serves case A elements whose base disc does not cover the line's start
 * (`requireInterior`): the side wall of a tilted standing cylinder can still dip into them.
 */
import type { ContactBuffer } from '../contact';
import { WheelContactKind } from '../contact';
import type { Heightfield } from '../../terrain/heightfield';
import { clipEndIsReal as clipEndIsRealImport, clipLowestLine as clipLowestLineImport, lineClip as lineClipImport, pushLinePoint as pushLinePointImport } from './case-b-side-trapezoid';
import type { ElementFrame } from './frame';
/*
 * Module-local copies of the imported bindings read per cell, element or edge. Under tsx and
 * vitest (a CommonJS transform) every read of an imported binding is a getter call on the
 * exporting module's object; a local constant is a plain load (about 2 % of a query).
 */
const CONTACT_POINT_C = WheelContactKind.PointC;
const clipEndIsReal = clipEndIsRealImport;
const clipLowestLine = clipLowestLineImport;
const lineClip = lineClipImport;
const pushLinePoint = pushLinePointImport;

/**
 * Case C contact of one element (frame with s(A_L) > 0 ≥ s(A_U)). With `requireInterior` the
 * point is emitted only when the clipped piece starts past A_L (t0 > 0). Returns the number of
 * contacts that did not fit.
 */
export function singlePointContact(out: ContactBuffer, hf: Heightfield, f: ElementFrame, requireInterior: boolean): number {
  if (!clipLowestLine(f, true)) return 0;
  if (requireInterior && lineClip.enterEdge === -1) return 0;
  if (!(f.sAL + lineClip.t0 * (f.sAU - f.sAL) > 0)) return 0;
  if (!clipEndIsReal(hf, f, lineClip.enterEdge)) return 0;
  return pushLinePoint(out, f, 0, CONTACT_POINT_C) ? 0 : 1;
}
