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
import { clipEndIsReal, clipLowestLine, type LineClip, pushLinePoint } from './case-b-side-trapezoid';
import type { ElementFrame } from './frame';

/**
 * Case C contact of one element (frame with s(A_L) > 0 ≥ s(A_U), s(B_L) ≤ 0): the deepest point
 * of the lowest line's below-plane part over the element. Returns the number of contacts that
 * did not fit.
 */
export function singlePointContact(out: ContactBuffer, hf: Heightfield, f: ElementFrame, clip: LineClip): number {
  if (!clipLowestLine(f, true, clip)) return 0;
  if (!(f.sAL + clip.t0 * (f.sAU - f.sAL) > 0)) return 0;
  if (!clipEndIsReal(hf, f, clip.enterEdge)) return 0;
  return pushLinePoint(out, f, clip.t0, WheelContactKind.PointC) ? 0 : 1;
}
