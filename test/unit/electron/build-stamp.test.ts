/**
 * `npm start` reuses a build whose sources have not changed (scripts/build-stamp.mjs): the stamp
 * follows file contents (not mtimes), a missing output or an edited source means "build", and
 * the input lists cover every local file the builds read (checked by following the relative
 * imports of the build configs and of every source under the inputs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs module without types
import { BUILDS, buildState, inputFiles, inputsHash, STAMP_FILE, writeStamp } from '../../../scripts/build-stamp.mjs';

interface Build {
  label: string;
  script: string;
  outDir: string;
  inputs: string[];
  outputs: string[];
}
const builds = BUILDS as Record<'web' | 'electron', Build>;
const ROOT = resolve(__dirname, '../../..');

describe('build stamp', () => {
  let dir: string;
  const build: Build = { label: 'test', script: 'x', outDir: 'out', inputs: ['src', 'config.json'], outputs: ['index.html'] };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-stamp-'));
    mkdirSync(join(dir, 'src/sub'), { recursive: true });
    writeFileSync(join(dir, 'src/a.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'src/sub/b.ts'), 'export const b = 2;\n');
    writeFileSync(join(dir, 'src/.hidden'), 'editor state');
    writeFileSync(join(dir, 'config.json'), '{}');
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out/index.html'), '<html></html>');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the input files sorted, without dot-files or !excluded folders, skipping inputs that do not exist', () => {
    expect(inputFiles(dir, [...build.inputs, 'missing'])).toEqual(['config.json', 'src/a.ts', 'src/sub/b.ts']);
    expect(inputFiles(dir, [...build.inputs, '!src/sub'])).toEqual(['config.json', 'src/a.ts']);
  });

  it('is up to date after a stamp, and stays so when only mtimes change', () => {
    const h = inputsHash(dir, build.inputs);
    expect(buildState(dir, build, h)).toEqual({ upToDate: false, reason: expect.stringMatching(/no build stamp/) });
    writeStamp(dir, build, h);
    expect(existsSync(join(dir, 'out', STAMP_FILE))).toBe(true);
    expect(buildState(dir, build, inputsHash(dir, build.inputs))).toEqual({ upToDate: true, reason: '' });
    const later = new Date(statSync(join(dir, 'src/a.ts')).mtimeMs + 60_000);
    utimesSync(join(dir, 'src/a.ts'), later, later);
    expect(inputsHash(dir, build.inputs)).toBe(h);
  });

  it('an edited, added, renamed or removed source, or a missing output, means build again', () => {
    const h = inputsHash(dir, build.inputs);
    writeStamp(dir, build, h);
    const changed = (f: () => void, undo: () => void) => {
      f();
      const now = inputsHash(dir, build.inputs);
      expect(buildState(dir, build, now)).toEqual({ upToDate: false, reason: 'sources changed since the last build' });
      undo();
      expect(inputsHash(dir, build.inputs)).toBe(h);
    };
    changed(() => writeFileSync(join(dir, 'src/a.ts'), 'export const a = 2;\n'), () => writeFileSync(join(dir, 'src/a.ts'), 'export const a = 1;\n'));
    changed(() => writeFileSync(join(dir, 'src/c.ts'), ''), () => rmSync(join(dir, 'src/c.ts')));
    changed(() => rmSync(join(dir, 'config.json')), () => writeFileSync(join(dir, 'config.json'), '{}'));
    // same bytes under another name
    changed(
      () => {
        writeFileSync(join(dir, 'src/sub/c.ts'), readFileSync(join(dir, 'src/sub/b.ts')));
        rmSync(join(dir, 'src/sub/b.ts'));
      },
      () => {
        writeFileSync(join(dir, 'src/sub/b.ts'), readFileSync(join(dir, 'src/sub/c.ts')));
        rmSync(join(dir, 'src/sub/c.ts'));
      },
    );
    rmSync(join(dir, 'out/index.html'));
    expect(buildState(dir, build, h)).toEqual({ upToDate: false, reason: 'out/index.html is missing' });
  });
});

/** Relative module references in a source file: imports, re-exports, dynamic imports, new URL(…, import.meta.url). */
function localRefs(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const re of [/\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g, /\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]/g, /\bimport\s+['"](\.{1,2}\/[^'"]+)['"]/g, /new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url/g]) {
    for (const m of src.matchAll(re)) out.push(m[1]);
  }
  return out;
}

/** The file a reference resolves to (TypeScript's extension rules), relative to ROOT, or null. */
function resolveRef(from: string, ref: string): string | null {
  const base = resolve(dirname(from), ref);
  for (const c of [base, `${base}.ts`, `${base}.mjs`, `${base}.js`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return relative(ROOT, c).split('\\').join('/');
  }
  return null;
}

describe('the inputs of npm start\'s builds', () => {
  const entries: Record<'web' | 'electron', string[]> = {
    web: ['vite.config.ts', 'renderer/index.html', 'renderer/main.ts'],
    electron: ['scripts/build-electron.mjs', 'electron/main.ts', 'electron/preload.ts'],
  };
  for (const kind of ['web', 'electron'] as const) {
    it(`${kind}: every local file its sources import is an input`, () => {
      const inputs = new Set<string>(inputFiles(ROOT, builds[kind].inputs));
      for (const e of entries[kind]) expect(inputs.has(e), e).toBe(true);
      const outside: string[] = [];
      for (const file of inputs) {
        if (!/\.(ts|mjs|js)$/.test(file)) continue;
        for (const ref of localRefs(join(ROOT, file))) {
          const target = resolveRef(join(ROOT, file), ref);
          if (target !== null && !inputs.has(target)) outside.push(`${file} -> ${target}`);
        }
      }
      expect(outside).toEqual([]);
    });
  }
});
