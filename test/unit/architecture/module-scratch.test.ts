/**
 * No module-level scratch or results in sim/collision and sim/dynamics: scratch lives in
 * workspaces the caller owns (a world, a query context), so two worlds, two worker queries or a
 * re-entrant call never share a buffer. The rules and the allowlist mechanism (`@immutable
 * <reason>` in a declaration's doc comment; frozen or read-only literal tables pass on their
 * own) are in module-scratch.ts.
 *
 * PENDING is the debt this round did not pay: per file, the number of module-level scratch
 * declarations still there. The scan fails on any finding in a file not listed, on more findings
 * than listed, and on fewer (lower the number when you move scratch into a workspace, so the
 * list only shrinks).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findModuleScratch } from './module-scratch';

const ROOT = join(__dirname, '../../..');
const SCANNED = ['sim/collision', 'sim/dynamics'];

/** File → number of module-level scratch declarations still to move into workspaces. */
const PENDING: Record<string, number> = {
};

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('module-scratch checker (on planted sources)', () => {
  const names = (src: string) => findModuleScratch(src, 'planted.ts').map((f) => f.name);
  it('finds scratch vectors, typed arrays, instances, factory results, let/var and exported mutable objects', () => {
    const src = [
      "import { vec3 } from './vec3';",
      'const tmp = new Float64Array(3);',
      'const v = vec3();',
      'const w: Vec3 = [0, 0, 0];',
      'let cache = null;',
      'var count = 0;',
      'export const sweptQuery = new Float64Array(7);',
      'export const result = { hit: false, t: 0 };',
      'const shared = new EpaWorkspace();',
      'export class Pool { static scratch = new Float64Array(4); static last = 0; }',
    ].join('\n');
    expect(names(src)).toEqual(['tmp', 'v', 'w', 'cache', 'count', 'sweptQuery', 'result', 'shared', 'Pool.scratch', 'Pool.last']);
  });
  it('allows constants, functions, frozen and read-only literal tables, Math results, and @immutable declarations with a reason', () => {
    const src = [
      'const EPS = 1e-9;',
      'const PARALLEL_SIN = Math.sqrt(1 - 0.99 * 0.99);',
      "const NAME = 'gjk';",
      'export const Status = { Ok: 0, Overflow: 1 } as const;',
      'const NAMES: readonly string[] = [\'ok\', \'overflow\'];',
      'const DI = [1, -1, 0, 0] as const;',
      'const SIDES: readonly CellEdge[] = [EDGE_BOTTOM, EDGE_LEFT];',
      'const ORIGIN = Object.freeze([0, 0, 0]);',
      'const f = (x: number) => x + 1;',
      '/** Pair routine per shape pair. @immutable a lookup table written only here */',
      'const PAIR_TABLE = new Uint8Array([0, 1, 2]);',
      'export class Pool { static readonly SIZE = 4; }',
    ].join('\n');
    expect(names(src)).toEqual([]);
  });
  it('does not let a read-only type hide a mutable leaf, nor an @immutable tag without a reason', () => {
    const src = [
      'const POSE: Readonly<Pose> = { position: new Float64Array(3), orientation: [0, 0, 0, 1] };',
      '/** @immutable */',
      'const T = new Float64Array(4);',
    ].join('\n');
    expect(names(src)).toEqual(['POSE', 'T']);
  });
});

describe('sim/collision and sim/dynamics hold no module-level scratch', () => {
  const files = SCANNED.flatMap((d) => tsFiles(join(ROOT, d))).map((f) => relative(ROOT, f).split('\\').join('/'));
  it('scans a real tree (the scan exercised something)', () => {
    expect(files.length).toBeGreaterThan(60);
    expect(files).toContain('sim/dynamics/world.ts');
  });
  it('no finding outside PENDING, and PENDING counts exactly what is left', () => {
    const problems: string[] = [];
    for (const f of files) {
      const found = findModuleScratch(readFileSync(join(ROOT, f), 'utf8'), f);
      const allowed = PENDING[f] ?? 0;
      if (found.length > allowed) {
        for (const x of found) problems.push(`${x.file}:${x.line} ${x.name}: ${x.rule}`);
        problems.push(`${f}: ${found.length} findings, ${allowed} pending — move the new ones into a workspace the caller owns`);
      } else if (found.length < allowed) {
        problems.push(`${f}: ${found.length} findings, PENDING says ${allowed}: lower PENDING (the list only shrinks)`);
      }
    }
    for (const f of Object.keys(PENDING)) if (!files.includes(f)) problems.push(`PENDING names ${f}, which is not scanned: remove it`);
    expect(problems).toEqual([]);
  });
});
