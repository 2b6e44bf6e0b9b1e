import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DESCRIBE_MAX_LENGTH, describeValue } from '../../../sim/util/describe-value';

function nested(depth: number, leaf: unknown, asObject = false): unknown {
  let v = leaf;
  for (let k = 0; k < depth; k++) v = asObject ? { a: v } : [v];
  return v;
}

describe('describeValue', () => {
  it('prints plain values like JSON, numbers like JavaScript', () => {
    expect(describeValue([1, 2])).toBe('[1,2]');
    expect(describeValue({ a: 'x', b: true, c: null })).toBe('{"a":"x","b":true,"c":null}');
    expect(describeValue('hills.png')).toBe('"hills.png"');
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue(NaN)).toBe('NaN');
    expect(describeValue([NaN, Infinity, -Infinity])).toBe('[NaN,Infinity,-Infinity]');
    expect(describeValue({ x: NaN })).toBe('{"x":NaN}');
    expect(describeValue(-0)).toBe('0');
    expect(describeValue(10n)).toBe('10n');
    expect(describeValue(() => 1)).toBe('<function>');
    expect(describeValue(new Float64Array(3))).toBe('Float64Array(3)');
  });

  it('survives 20,000-deep arrays and objects (JSON.stringify overflows the stack there)', () => {
    // Regression: a sidecar whose "origin" was 20,000 arrays deep ended in "Maximum call stack size exceeded".
    const deep = nested(20_000, 1);
    expect(() => JSON.stringify(nested(200_000, 1))).toThrow(RangeError);
    expect(describeValue(deep)).toBe('[[[[...]]]]');
    expect(describeValue(nested(20_000, 1, true))).toBe('{"a":{"a":{"a":{...}}}}');
  });

  it('survives cycles, throwing getters, revoked proxies and {"toString": 1}', () => {
    const cyc: Record<string, unknown> = { a: 1 };
    cyc.self = cyc;
    expect(describeValue(cyc)).toBe('{"a":1,"self":<cycle>}');
    const getter = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(describeValue(getter)).toBe('{"x":<getter threw>}');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(describeValue(proxy)).toBe('<object>');
    const trap = new Proxy({}, { ownKeys: () => { throw new Error('trap'); } });
    expect(describeValue(trap)).toBe('<object>');
    // Regression: String({toString: 1}) throws "Cannot convert object to primitive value".
    expect(() => String({ toString: 1 })).toThrow(TypeError);
    expect(describeValue({ toString: 1 })).toBe('{"toString":1}');
    expect(describeValue(Object.create(null))).toBe('{}');
  });

  it('cuts long strings, wide arrays and the whole text', () => {
    const long = 'x'.repeat(1_000_000);
    const d = describeValue(long);
    expect(d.length).toBeLessThanOrEqual(DESCRIBE_MAX_LENGTH);
    expect(d.endsWith('...')).toBe(true);
    expect(describeValue(Array.from({ length: 12 }, (_, k) => k))).toBe('[0,1,2,3,4,5,6,7,… 4 more]');
    expect(describeValue(new Array(1e6).fill(0), 200)).toContain('… 999992 more');
    expect(describeValue('abc', 8)).toBe('"abc"');
  });

  it('never throws and stays within the length on arbitrary values (seeded)', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withNullPrototype: true, withTypedArray: true, withSparseArray: true, maxDepth: 6 }), (v) => {
        const s = describeValue(v);
        return typeof s === 'string' && s.length <= DESCRIBE_MAX_LENGTH;
      }),
      { seed: 18, numRuns: 500 },
    );
  });
});
