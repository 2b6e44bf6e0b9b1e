/**
 * A clean install on the Node version the README states. The project's .npmrc hides npm's
 * warnings (loglevel=error) because on Node 20 the only ones are the engine notices of Electron
 * 45's packaging tools; this test is what keeps that honest: any other package in the lock file
 * whose `engines.node` excludes the stated Node version fails here instead of being hidden.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs module without types
import { distNodeMessage, nodeSupported, nodeSupportsDist } from '../../../scripts/node-version.mjs';

/** npm's own range semantics (semver comes with npm's dependency tree; it has no bundled types). */
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

const root = join(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

/** The packaging tool chain of `npm run dist` (checked by scripts/check-node-for-dist.mjs). */
const PACKAGING_ONLY = [/^electron$/, /^@electron\//, /^@electron-internal\//, /^node-abi$/, /^@napi-rs\/lzma/];

/** Versions the README promises (engines ">=20.19": Vite 7 needs 20.19). */
const STATED_NODES = ['20.19.0', '22.12.0', '24.0.0'];

function enginesMismatches(node: string): string[] {
  const out: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)) {
    const range = entry.engines?.node;
    if (!path || !range || typeof range !== 'string') continue;
    if (!semver.satisfies(node, range)) out.push(path.replace(/^.*node_modules\//, ''));
  }
  return out;
}

describe('install on the stated Node versions', () => {
  it('the README and package.json state Node 20.19 or newer', () => {
    expect(pkg.engines.node).toBe('>=20.19');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(/Node 20.19 or newer/);
  });

  it('.npmrc hides warnings only because every engine mismatch is a packaging tool', () => {
    expect(readFileSync(join(root, '.npmrc'), 'utf8')).toMatch(/^loglevel=error$/m);
    for (const node of STATED_NODES) {
      const others = enginesMismatches(node).filter((name) => !PACKAGING_ONLY.some((re) => re.test(name)));
      expect(others, `packages that do not support Node ${node}`).toEqual([]);
    }
  });

  it('the packaging check and the post-install note agree on the real requirement', () => {
    expect(nodeSupportsDist('20.20.2')).toBe(false);
    expect(nodeSupportsDist('22.11.9')).toBe(false);
    expect(nodeSupportsDist('22.12.0')).toBe(true);
    expect(nodeSupportsDist('24.1.0')).toBe(true);
    expect(distNodeMessage('20.1.0')).toMatch(/22\.12 or newer.*Node 20\.1\.0.*Node 20\.19/);
    expect(nodeSupported('20.18.9')).toBe(false);
    expect(nodeSupported('20.19.0')).toBe(true);
    // Every package that needs more than Node 20 must be covered by that check.
    const needsNewer = enginesMismatches('20.19.0');
    for (const name of needsNewer) expect(PACKAGING_ONLY.some((re) => re.test(name)), name).toBe(true);
    expect(pkg.scripts.dist).toMatch(/^node scripts\/check-node-for-dist\.mjs && /);
    expect(pkg.scripts.postinstall).toBe('node scripts/postinstall.mjs');
  });
});
