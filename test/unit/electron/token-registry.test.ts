import { describe, expect, it } from 'vitest';
import { MAX_DIRECTORY_TOKENS, TokenRegistry } from '../../../electron/token-registry';

describe('TokenRegistry', () => {
  it('resolves issued tokens and nothing else', () => {
    let n = 0;
    const reg = new TokenRegistry(() => `t${n++}`);
    const a = reg.issue('/home/u/maps');
    expect(reg.resolve(a)).toBe('/home/u/maps');
    expect(reg.resolve('t99')).toBeUndefined();
    expect(reg.resolve('/home/u/maps')).toBeUndefined();
  });

  it('regenerates on a collision instead of overwriting a live token', () => {
    const seq = ['same', 'same', 'other'];
    const reg = new TokenRegistry(() => seq.shift() ?? 'x');
    const a = reg.issue('/a');
    const b = reg.issue('/b');
    expect(a).toBe('same');
    expect(b).toBe('other');
    expect(reg.resolve('same')).toBe('/a');
  });

  it('evicts the oldest token beyond MAX_DIRECTORY_TOKENS', () => {
    let n = 0;
    const reg = new TokenRegistry(() => `t${n++}`);
    for (let i = 0; i < MAX_DIRECTORY_TOKENS + 5; i++) reg.issue(`/d${i}`);
    expect(reg.size).toBe(MAX_DIRECTORY_TOKENS);
    expect(reg.resolve('t0')).toBeUndefined();
    expect(reg.resolve('t4')).toBeUndefined();
    expect(reg.resolve('t5')).toBe('/d5');
  });
});
