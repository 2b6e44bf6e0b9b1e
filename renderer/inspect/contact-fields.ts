/**
 * The selected contact's fields as the inspector lists them, in the chosen display units. Pure
 * (no DOM); unit-tested.
 */
import type { WorldInfo } from '../../sim/app/protocol';
import { DEFAULT_UNITS, formatNumber, formatVector, labelWithUnit, NO_VALUE, RESOLUTION, type DisplayUnits } from '../app/units';
import type { ContactDetail } from './contact-detail';

/**
 * The selected contact's fields as [key, label, text, raw numbers], in display order, in the display
 * units `u`. The key and the raw numbers (SI, exactly the frame's) are written as data-field /
 * data-raw, so tests compare exact values.
 */
export function detailFields(d: ContactDetail, w: WorldInfo, u: DisplayUnits = DEFAULT_UNITS): [string, string, string, number[]?][] {
  const name = (b: number): string => (b < 0 ? 'terrain' : (w.bodies[b]?.name ?? `#${b}`));
  const f: [string, string, string, number[]?][] = [
    ['index', 'contact', `#${d.index} of step ${d.step}`],
    ['bodies', 'bodies', `${name(d.bodyA)} on ${name(d.bodyB)}`],
    ['case', 'case', `${d.kindName} (${d.kind})`, [d.kind]],
    ['cell', 'terrain cell', d.cellI >= 0 ? `${d.cellI},${d.cellJ}` : NO_VALUE],
    ['element', 'element', d.element ?? NO_VALUE],
    ['point', labelWithUnit('point', u, 'length'), formatVector(u, 'length', d.point, RESOLUTION.position), d.point],
    ['normal', 'normal', formatVector(u, 'count', d.normal, 1e-4), d.normal],
    ['depth', labelWithUnit('depth', u, 'length'), formatNumber(u, 'length', d.depth, RESOLUTION.depth), [d.depth]],
    ['normalImpulse', labelWithUnit('normal impulse', u, 'impulse'), formatNumber(u, 'impulse', d.normalImpulse, RESOLUTION.impulse), [d.normalImpulse]],
    ['frictionImpulse', labelWithUnit('friction impulse', u, 'impulse'), formatVector(u, 'impulse', [d.t1Impulse, d.t2Impulse], RESOLUTION.impulse), [d.t1Impulse, d.t2Impulse]],
    ['normalForce', labelWithUnit('normal force', u, 'force'), formatNumber(u, 'force', d.normalForce, RESOLUTION.force)],
    ['frictionForce', labelWithUnit('friction force', u, 'force'), formatNumber(u, 'force', d.frictionForce, RESOLUTION.force)],
    ['slip', labelWithUnit('slip', u, 'speed'), d.slip ? `${formatVector(u, 'speed', d.slip, RESOLUTION.speed)} (|${formatNumber(u, 'speed', d.slipSpeed ?? NaN, RESOLUTION.speed)}|)` : NO_VALUE],
    ['normalSpeed', labelWithUnit('normal speed', u, 'speed'), d.normalSpeed !== null ? formatNumber(u, 'speed', d.normalSpeed, 1e-4) : NO_VALUE],
  ];
  return f;
}
