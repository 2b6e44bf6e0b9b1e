/**
 * `npm install` on a fresh clone must leave `git status` clean. npm rewrites package-lock.json
 * whenever its root entry (packages[""]) disagrees with package.json, so that entry is checked
 * field by field here. The regression this pins: package.json gained a `postinstall` script and
 * `engines.node` ">=20.19" while the lock kept `"node": ">=20"` and no `hasInstallScript`, so
 * every fresh clone came out of `npm install` with package-lock.json modified. Adding the `bin`
 * entry would have done the same.
 *
 * After editing package.json's dependencies, bin, engines, license or install scripts, run
 * `npm install` and commit the lock with it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** npm's own range semantics (semver comes with npm's dependency tree; it has no bundled types). */
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

const root = join(__dirname, '../../..');

interface Manifest {
  name?: string;
  version?: string;
  license?: string;
  bin?: Record<string, string> | string;
  engines?: Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

interface LockRoot extends Omit<Manifest, 'scripts'> {
  hasInstallScript?: boolean;
}

/** The scripts npm runs on install of the root package (what `hasInstallScript` records). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

/** Differences between package.json and the lock's root entry that make `npm install` rewrite the lock. */
function lockRootMismatches(pkg: Manifest, lockRoot: LockRoot): string[] {
  const out: string[] = [];
  const same = (field: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a ?? null) !== JSON.stringify(b ?? null)) out.push(`${field}: package.json ${JSON.stringify(a)} vs lock ${JSON.stringify(b)}`);
  };
  for (const f of ['name', 'version', 'license', 'engines', 'dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const) same(f, pkg[f], lockRoot[f]);
  const bin = typeof pkg.bin === 'string' && pkg.name ? { [pkg.name]: pkg.bin } : pkg.bin;
  same('bin', bin, lockRoot.bin);
  const hasInstall = INSTALL_SCRIPTS.some((s) => pkg.scripts?.[s] !== undefined);
  same('hasInstallScript', hasInstall || undefined, lockRoot.hasInstallScript);
  return out;
}

describe('package-lock.json is in step with package.json (a fresh `npm install` changes nothing)', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { name: string; version: string; lockfileVersion: number; packages: Record<string, LockRoot & { version?: string }> };

  it('the lock root entry matches package.json field by field', () => {
    expect(lock.lockfileVersion).toBe(3);
    expect(lock.name).toBe(pkg.name);
    expect(lock.version).toBe(pkg.version);
    expect(lockRootMismatches(pkg, lock.packages[''])).toEqual([]);
  });

  it('every direct dependency is locked at a version its range accepts', () => {
    const wrong: string[] = [];
    for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
      const locked = lock.packages[`node_modules/${name}`]?.version;
      if (locked === undefined || !semver.satisfies(locked, range)) wrong.push(`${name}@${range}: locked ${locked ?? 'nowhere'}`);
    }
    expect(wrong).toEqual([]);
  });

  it('catches the lock that dirtied fresh clones (engines and hasInstallScript out of step)', () => {
    const stale: LockRoot = { ...lock.packages[''], engines: { node: '>=20' } };
    delete stale.hasInstallScript;
    expect(lockRootMismatches(pkg, stale)).toEqual([expect.stringMatching(/^engines:/), expect.stringMatching(/^hasInstallScript:/)]);
    const noBin: LockRoot = { ...lock.packages[''] };
    delete noBin.bin;
    expect(lockRootMismatches(pkg, noBin)).toEqual([expect.stringMatching(/^bin:/)]);
  });
});
