/**
 * The sweep worker bundle's cache (sim/node/sweep-bundle.ts): the stamp file lets a sweep reuse
 * the bundle without hashing the sources; a stamp that does not match (a touched file) or that
 * names a bundle that is not there falls back to the hash, never to a wrong bundle.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findOrBuildSweepBundle, sweepBundleKey, sweepSourceStamp, sweepWorkerBundle, SWEEP_BUNDLE_STAMP } from '../../../sim/node/sweep-bundle';

const esbuildVersion = (createRequire(import.meta.url)('esbuild/package.json') as { version: string }).version;
const keyOf = (url: string): string => dirname(fileURLToPath(url)).split('/').at(-1) as string;
const stampFile = (): { key: string; stamp: string } => JSON.parse(readFileSync(SWEEP_BUNDLE_STAMP, 'utf8')) as { key: string; stamp: string };

describe('sweep bundle cache', () => {
  it('records the key of the current sources with their stamp, and a stale or broken stamp only costs a rehash', async () => {
    const key = sweepBundleKey(esbuildVersion);
    const url = await findOrBuildSweepBundle();
    expect(keyOf(url)).toBe(key);
    const stamp = sweepSourceStamp(esbuildVersion);
    expect(stamp).toContain(`\nnode/sweep-bundle.ts ${readFileSync(fileURLToPath(new URL('../../../sim/node/sweep-bundle.ts', import.meta.url))).length} `);
    expect(stampFile()).toEqual({ key, stamp });
    // the stamp matches: the same bundle
    expect(await findOrBuildSweepBundle()).toBe(url);
    // a stamp naming a bundle that is not there (a cleared cache): hashed again, rewritten
    writeFileSync(SWEEP_BUNDLE_STAMP, JSON.stringify({ key: '0123456789abcdef', stamp }));
    expect(await findOrBuildSweepBundle()).toBe(url);
    expect(stampFile().key).toBe(key);
    // another stamp (a file touched since) with some other key: not trusted
    writeFileSync(SWEEP_BUNDLE_STAMP, JSON.stringify({ key: '0123456789abcdef', stamp: stamp.replace(/ (\d+)$/m, ' 1') }));
    expect(await findOrBuildSweepBundle()).toBe(url);
    expect(stampFile()).toEqual({ key, stamp });
    // a torn file
    writeFileSync(SWEEP_BUNDLE_STAMP, '{"key":');
    expect(await findOrBuildSweepBundle()).toBe(url);
    expect(stampFile()).toEqual({ key, stamp });
  }, 120_000);

  it('loads: every package it bundles runs as ESM (yaml\'s CommonJS build calling require("process") did not, and failed every run of a pool)', async () => {
    const url = await findOrBuildSweepBundle();
    // in a plain Node process (this test runner defines a global require, which hides the fault)
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(url)}); console.log(typeof m.default);`], { encoding: 'utf8', timeout: 120_000 });
    expect(out.trim()).toBe('function');
    const notes: string[] = [];
    expect(await sweepWorkerBundle((w) => notes.push(w))).toBe(url);
    expect(notes).toEqual([]);
  }, 120_000);
});
