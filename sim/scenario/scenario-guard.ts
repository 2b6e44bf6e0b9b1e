/**
 * Safety for untrusted scenario input, used before and while validating it:
 *
 *   checkScenarioSize   an iterative walk (explicit stack, no recursion) that rejects values
 *                       nested deeper than MAX_SCENARIO_DEPTH or holding more than
 *                       MAX_SCENARIO_NODES values, so the schema library (which recurses) and
 *                       our messages never meet a 20,000-deep array or a billion-item list;
 *   describeValue       a short, bounded description of any value for error messages: type and
 *                       size plus a short excerpt. It never calls JSON.stringify, String() or
 *                       toString() on objects (`{"toString": 1}` must not throw while we report it).
 *
 * Typed arrays (a script's inline terrain heights) count as one node: their size is checked by
 * the field that accepts them.
 */

/** A scenario that cannot be loaded; the message names the field, what is wrong and what is allowed. */
export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** Deepest nesting accepted (a v2 scenario needs about 8: bodies[i].shape.children[j].shape.points[k][l]). */
export const MAX_SCENARIO_DEPTH = 64;
/** Most values (objects, arrays, numbers, strings, ...) in one scenario. */
export const MAX_SCENARIO_NODES = 1_000_000;
/** Characters of a string shown in a message before it is cut. */
const EXCERPT_CHARS = 24;
/** Object keys named in a message. */
const EXCERPT_KEYS = 3;

function isTypedArray(v: object): v is ArrayLike<number> {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

/**
 * Throws ScenarioError when `raw` is nested deeper than `maxDepth` or holds more than
 * `maxNodes` values. Linear in the number of values visited, stops at the first excess.
 * Cycles (possible in a script's object) show up as excess depth.
 */
export function checkScenarioSize(raw: unknown, maxDepth = MAX_SCENARIO_DEPTH, maxNodes = MAX_SCENARIO_NODES): void {
  const values: unknown[] = [raw];
  const depths: number[] = [1];
  // The top-level field each pending value sits under (undefined for the root), and how many
  // values each field has put on the stack so far: at the cap the message names where the bulk is (issue #28:
  // it named whichever small array came last, "an array of 3 items").
  const tops: (string | undefined)[] = [undefined];
  const perTop = new Map<string, number>();
  let nodes = 0;
  const tooLarge = (): ScenarioError => {
    let key = '';
    let most = -1;
    for (const [k, n] of perTop) if (n > most) [key, most] = [k, n];
    const where = most >= 0 ? `; ${excerpt(key)} holds at least ${most} of them` : '';
    return new ScenarioError(`scenario: too large: more than ${maxNodes} values in all${where}; pass a big inline terrain's heights as a Float64Array`);
  };
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop() as number;
    const top = tops.pop();
    if (++nodes > maxNodes) throw tooLarge();
    if (typeof v !== 'object' || v === null || isTypedArray(v)) continue;
    if (depth >= maxDepth) throw new ScenarioError(`scenario: nested more than ${maxDepth} levels deep`);
    if (Array.isArray(v)) {
      if (nodes + v.length > maxNodes) {
        // One array that is most of the budget is named as such; otherwise the field that holds the most.
        if (v.length >= nodes) {
          const name = top === undefined ? 'the scenario' : excerpt(top);
          throw new ScenarioError(
            `scenario: too large: ${name} is an array of ${v.length} items; at most ${maxNodes} values in all; pass a big inline terrain's heights as a Float64Array`,
          );
        }
        if (top !== undefined) perTop.set(top, (perTop.get(top) ?? 0) + v.length);
        throw tooLarge();
      }
      if (top !== undefined) perTop.set(top, (perTop.get(top) ?? 0) + v.length);
      for (let k = 0; k < v.length; k++) {
        values.push(v[k]);
        depths.push(depth + 1);
        tops.push(top);
      }
    } else {
      for (const key in v) {
        if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
        values.push((v as Record<string, unknown>)[key]);
        depths.push(depth + 1);
        tops.push(top ?? key);
        perTop.set(top ?? key, (perTop.get(top ?? key) ?? 0) + 1);
        if (values.length > maxNodes) throw tooLarge();
      }
    }
  }
}

/** A string cut to `max` characters, quoted, with control characters escaped. */
export function excerpt(s: string, max = EXCERPT_CHARS): string {
  const cut = s.length > max ? s.slice(0, max) : s;
  let out = '"';
  for (let k = 0; k < cut.length; k++) {
    const c = cut.charCodeAt(k);
    if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (cut[k] === '"' || cut[k] === '\\') out += `\\${cut[k]}`;
    else out += cut[k];
  }
  return `${out}${s.length > max ? '…' : ''}"`;
}

/** The project's one value describer (sim/util/describe-value.ts): bounded, never throws. */
export { describeValue } from '../util/describe-value';
