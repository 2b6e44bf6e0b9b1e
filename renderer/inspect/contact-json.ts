/**
 * A contact's data as JSON (issue #30, "copy a contact's data"): what the inspector shows, in SI
 * units and full float precision, with the bodies named, so it can be pasted into a bug report, a
 * notebook or a test. Pure; unit-tested.
 */
import type { WorldInfo } from '../../sim/app/protocol';
import type { ContactDetail } from './contact-detail';

/** Version of the object's layout: a consumer can tell a later layout apart. */
export const CONTACT_JSON_FORMAT = 'terrawheel-contact/1';

/** The contact `d` of world `w` at time `time` [s] as a plain object (JSON-safe: no NaN). */
export function contactJson(d: ContactDetail, w: WorldInfo, time: number): Record<string, unknown> {
  const name = (b: number): string => (b < 0 ? 'terrain' : (w.bodies[b]?.name ?? `#${b}`));
  const num = (x: number | null): number | null => (x !== null && Number.isFinite(x) ? x : null);
  const vec = (v: readonly number[] | null): (number | null)[] | null => (v ? v.map(num) : null);
  return {
    format: CONTACT_JSON_FORMAT,
    scenario: w.scenarioName,
    step: d.step,
    time_s: num(time),
    index: d.index,
    bodyA: name(d.bodyA),
    bodyB: name(d.bodyB),
    case: d.kindName,
    kind: d.kind,
    cell: d.cellI >= 0 ? [d.cellI, d.cellJ] : null,
    element: d.element,
    point_m: vec(d.point),
    normal: vec(d.normal),
    depth_m: num(d.depth),
    normalImpulse_Ns: num(d.normalImpulse),
    frictionImpulse_Ns: vec([d.t1Impulse, d.t2Impulse]),
    normalForce_N: num(d.normalForce),
    frictionForce_N: num(d.frictionForce),
    slip_mps: vec(d.slip),
    normalSpeed_mps: num(d.normalSpeed),
  };
}

/** contactJson as indented text. */
export function contactJsonText(d: ContactDetail, w: WorldInfo, time: number): string {
  return JSON.stringify(contactJson(d, w, time), null, 2);
}
