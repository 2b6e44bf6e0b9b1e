/**
 * Fuzzing every IPC handler (electron/handlers.ts, issue #18) the way a compromised renderer would
 * call them: random channels and hostile arguments (special numbers, '../' and absolute paths,
 * dotfiles, huge strings, deep nesting, objects whose toString throws, prototype keys), seeded,
 * a fixed number of calls (fuzz-budget.ts), against real files in a temp directory.
 *
 * Property, for every call: dispatch resolves, or rejects with the documented errors
 * (IpcValidationError naming the field, or HostFileError for a file problem), within
 * PER_INPUT_BUDGET_MS; whatever it resolves to never contains the secret files' bytes (a file
 * beside the opened one that the sidecar does not name, a dotfile, a symlink target, a file
 * outside every root), and the settings file never gains a path the user did not choose.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLED_CHANNELS, HostFileError, createHandlers, type HostDialogs } from '../../electron/handlers';
import type { FileKind } from '../../electron/ipc-contract';
import { nodeFiles, nodeSettingsIo } from '../../electron/node-files';
import { SettingsStore } from '../../electron/settings-store';
import { TokenRegistry } from '../../electron/token-registry';
import { IpcValidationError } from '../../electron/validate';
import { FUZZ_SEED, FUZZ_TIMEOUT_MS, MAX_MESSAGE_LENGTH, PEAK_RSS_BUDGET_BYTES, PER_INPUT_BUDGET_MS, cpuMs, peakRss, runs } from './fuzz-budget';

/** Calls in CI. */
const CI_CALLS = 3000;
const SECRET = 'TOP-SECRET-7f3a';

let dir: string;
let handlers: ReturnType<typeof createHandlers>;
let settingsPath: string;
const tokens: string[] = [];

/** Dialog answers cycle through the user's real files (and cancel). */
class CyclingDialogs implements HostDialogs {
  private k = 0;
  constructor(private readonly answers: (string | null)[]) {}
  async showOpen(_kind: FileKind): Promise<string | null> {
    return this.answers[this.k++ % this.answers.length];
  }
  async showSave(_kind: FileKind, _name: string): Promise<string | null> {
    return path.join(dir, 'user', 'saved.bin');
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-ipc-fuzz-'));
  const maps = path.join(dir, 'user', 'maps');
  mkdirSync(maps, { recursive: true });
  mkdirSync(path.join(dir, 'app', 'assets', 'terrains'), { recursive: true });
  writeFileSync(path.join(maps, 'hills.json'), '{"image":"hills.png"}');
  writeFileSync(path.join(maps, 'hills.png'), 'PNGDATA');
  writeFileSync(path.join(maps, 'run.json'), '{"terrain":"hills.json"}');
  writeFileSync(path.join(maps, 'notes.txt'), SECRET);
  writeFileSync(path.join(maps, '.env'), SECRET);
  writeFileSync(path.join(maps, 'evil.json'), '{"image":"../secret.txt","terrain":".env"}');
  writeFileSync(path.join(dir, 'user', 'secret.txt'), SECRET);
  writeFileSync(path.join(dir, 'app', 'package.json'), SECRET);
  symlinkSync(path.join(dir, 'user', 'secret.txt'), path.join(maps, 'link.png'));
  writeFileSync(path.join(maps, 'link.json'), '{"image":"link.png"}');
  symlinkSync(path.join(dir, 'user', 'secret.txt'), path.join(dir, 'app', 'assets', 'terrains', 'evil.png'));
  writeFileSync(path.join(dir, 'app', 'assets', 'terrains', 'flat.json'), '{}');
  settingsPath = path.join(dir, 'userData', 'settings.json');
  handlers = createHandlers({
    files: nodeFiles,
    dialogs: new CyclingDialogs(['hills.json', 'run.json', 'evil.json', 'link.json', null].map((n) => (n === null ? null : path.join(maps, n)))),
    settings: new SettingsStore(nodeSettingsIo, settingsPath, () => undefined),
    tokens: new TokenRegistry(() => `tok-${tokens.length}-${Math.random().toString(36).slice(2)}`),
    assetsRoot: path.join(dir, 'app', 'assets'),
  });
  // Real tokens for the fuzzer to use (a renderer has them too).
  for (let k = 0; k < 4; k++) {
    const opened = await handlers.openFile('terrain');
    if (opened) tokens.push(opened.token);
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAMES = ['hills.png', 'hills.json', 'notes.txt', '.env', 'link.png', '../secret.txt', 'secret.txt', '..', '.', '', 'a/b', 'C:\\x', '\u0000', 'x'.repeat(10_000), 'package.json', '__proto__'];
const ASSET_PATHS = ['terrains/flat.json', 'terrains/evil.png', '../package.json', '/etc/passwd', 'terrains//flat.json', 'terrains/../../package.json', 'terrains\\flat.json', '%2e%2e/package.json'];

function deep(depth: number): unknown {
  let v: unknown = 1;
  for (let k = 0; k < depth; k++) v = [v];
  return v;
}

const hostileArg: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...NAMES, ...ASSET_PATHS, 'terrain', 'robot', 'scenario', 'recording', 'nope'),
  fc.constantFrom(0, -1, 1, 2, 1.5, NaN, Infinity, 2 ** 53, -0),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant({ toString: 1 }),
  fc.constant({ toString: () => { throw new Error('toString'); } }),
  fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "recentFiles": [{"kind": "terrain", "name": "x", "path": "/etc/passwd"}]}')),
  fc.record({ kind: fc.constantFrom('terrain', 'recording', 'x'), suggestedName: fc.constantFrom('a.bin', '../a', '.x'), bytes: fc.constantFrom(new Uint8Array(3), 'str', null) }),
  fc.record({ recentFiles: fc.array(fc.record({ kind: fc.constant('terrain'), name: fc.constant('s'), path: fc.constantFrom('/etc/passwd', path.join(tmpdir(), 'x')) }), { maxLength: 2 }), showContacts: fc.constantFrom(true, 'yes') }, { requiredKeys: [] }),
  fc.integer({ min: 1, max: 20_000 }).map(deep),
  fc.anything({ maxDepth: 3 }),
);

const call = fc.record({
  channel: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...HANDLED_CHANNELS) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }),
  token: fc.oneof(fc.nat({ max: 3 }), hostileArg),
  args: fc.array(hostileArg, { maxLength: 3 }),
  /** Targeted: well-formed calls whose name or path is the attack (else the arity check stops most). */
  targeted: fc.boolean(),
  name: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: hostileArg }),
  assetPath: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ASSET_PATHS) }, { weight: 1, arbitrary: hostileArg }),
});

function containsSecret(v: unknown, depth = 0): boolean {
  if (depth > 4 || v === null || v === undefined) return false;
  if (v instanceof Uint8Array) return Buffer.from(v).includes(SECRET);
  if (typeof v === 'string') return v.includes(SECRET);
  if (Array.isArray(v)) return v.some((x) => containsSecret(x, depth + 1));
  if (typeof v === 'object') return Object.values(v).some((x) => containsSecret(x, depth + 1));
  return false;
}

describe('fuzz: IPC handlers (seeded, fixed counts)', () => {
  it(`${runs(CI_CALLS)} hostile calls over every channel: a result without secrets, or a documented error`, async () => {
    const tally = { resolved: 0, validation: 0, file: 0 };
    const before = peakRss();
    await fc.assert(
      fc.asyncProperty(call, async (c) => {
        // Half of the readRelated / readAsset calls are well-formed (a real token, one name), so the
        // name and path checks behind the argument checks are reached.
        let args = c.args;
        if (c.targeted && c.channel === 'host:read-related') args = [tokens[typeof c.token === 'number' ? c.token % tokens.length : 0], c.name];
        if (c.targeted && c.channel === 'host:read-asset') args = [c.assetPath];
        const t = cpuMs();
        let leaked = false;
        try {
          const res = await handlers.dispatch(c.channel, args);
          leaked = containsSecret(res);
          tally.resolved++;
        } catch (err) {
          if (err instanceof IpcValidationError) tally.validation++;
          else if (err instanceof HostFileError) tally.file++;
          else throw new Error(`not a documented error from ${c.channel}: ${err instanceof Error ? `${err.name}: ${err.message.slice(0, 200)}` : typeof err}`);
          if ((err as Error).message.length > MAX_MESSAGE_LENGTH) throw new Error(`message of ${(err as Error).message.length} characters`);
        }
        if (leaked) throw new Error(`leaked a secret through ${c.channel}`);
        const ms = cpuMs() - t;
        if (ms > PER_INPUT_BUDGET_MS) throw new Error(`${c.channel} took ${ms.toFixed(0)} ms of CPU`);
      }),
      { seed: FUZZ_SEED + 10, numRuns: runs(CI_CALLS), endOnFailure: true },
    );
    expect(peakRss() - before).toBeLessThan(PEAK_RSS_BUDGET_BYTES);
    expect(tally.resolved).toBeGreaterThan(0);
    expect(tally.validation).toBeGreaterThan(0);
    // The user's settings never gained a path outside the files the dialogs returned.
    const saved = readFileSync(settingsPath, 'utf8');
    expect(saved).not.toContain('/etc/passwd');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, FUZZ_TIMEOUT_MS);
});
