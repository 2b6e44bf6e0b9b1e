/**
 * The API reference (issue #26): `npm run docs` builds it with TypeDoc from the doc comments of
 * `sim/index.ts`, and every export of that entry point has a doc comment.
 *
 * TypeDoc converts the whole core (about a minute on a quiet 2-core machine, several on a loaded
 * one): the hook has a generous timeout and the tests only read what it built.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Application, LogLevel, TSConfigReader, TypeDocReader, type ProjectReflection } from 'typedoc';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { undocumentedExports } from './doc-coverage';

const root = resolve(__dirname, '..', '..', '..');
const TYPEDOC_TIMEOUT_MS = 20 * 60_000;

describe('API reference (TypeDoc over sim/index.ts)', () => {
  const out = mkdtempSync(join(tmpdir(), 'terrawheel-api-'));
  let project: ProjectReflection | undefined;
  const problems: string[] = [];

  beforeAll(async () => {
    const app = await Application.bootstrapWithPlugins(
      { options: join(root, 'typedoc.json'), tsconfig: join(root, 'tsconfig.json'), logLevel: LogLevel.Warn },
      [new TypeDocReader(), new TSConfigReader()],
    );
    // Collect warnings and errors (a broken {@link}, a comment TypeDoc cannot parse) instead of printing them.
    app.logger.log = (message: string, level: LogLevel) => {
      if (level >= LogLevel.Warn) problems.push(message);
    };
    project = await app.convert();
    if (project) {
      app.validate(project);
      await app.generateDocs(project, out);
    }
  }, TYPEDOC_TIMEOUT_MS);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('builds without warnings or errors', () => {
    expect(project).toBeDefined();
    expect(problems).toEqual([]);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    // the reference holds the library's main entries
    for (const name of ['createWorld', 'collideCylinderTerrain', 'Heightfield', 'RecordingWriter']) {
      expect(project?.getChildByName(name), name).toBeDefined();
    }
  });

  it('every export of sim/index.ts has a doc comment', () => {
    expect(undocumentedExports(join(root, 'sim/index.ts')).map((e) => `${e.name} (${e.file.slice(root.length + 1)})`)).toEqual([]);
  }, TYPEDOC_TIMEOUT_MS);
});

describe('undocumentedExports (the check itself)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'terrawheel-doc-coverage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a planted undocumented export of every kind, and nothing documented', () => {
    writeFileSync(
      join(dir, 'a.ts'),
      [
        '/** Documented. */ export function good(): number { return 1; }',
        'export function bad(): number { return 2; }',
        '/** Documented constant. */ export const GOOD_CONST = 1;',
        'export const BAD_CONST = 2, ALSO_BAD = 3;',
        '/** Two meanings, one comment. */ export const Status = { Ok: 0 } as const;',
        'export type Status = (typeof Status)[keyof typeof Status];',
        'export class BadClass {}',
        'export interface BadInterface { x: number }',
        'export type BadAlias = number;',
        'export enum BadEnum { A }',
        '// a line comment is not a doc comment',
        'export function lineCommented(): void {}',
        '/** */ export function emptyDoc(): void {}',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'ns.ts'), '/** Documented. */ export const X = 1;\n');
    writeFileSync(
      join(dir, 'index.ts'),
      [
        "export * from './a';",
        "/** A documented namespace. */ export * as documentedNs from './ns';",
        "export * as undocumentedNs from './ns';",
        "export { good as renamed } from './a';",
      ].join('\n'),
    );
    const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true };
    expect(undocumentedExports(join(dir, 'index.ts'), options).map((e) => e.name).sort()).toEqual([
      'ALSO_BAD', 'BAD_CONST', 'BadAlias', 'BadClass', 'BadEnum', 'BadInterface', 'bad', 'emptyDoc', 'lineCommented', 'undocumentedNs',
    ]);
  });
});
