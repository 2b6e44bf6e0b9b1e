import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeSettingsIo } from '../../../electron/node-files';
import { SettingsStore, defaultSettings, sanitizeSettings, type SettingsIo } from '../../../electron/settings-store';
import { MAX_RECENT_FILES } from '../../../electron/validate';

let dir: string;
let file: string;
let warnings: string[];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-settings-'));
  file = path.join(dir, 'settings.json');
  warnings = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function store(io: SettingsIo = nodeSettingsIo): SettingsStore {
  return new SettingsStore(io, file, (m) => warnings.push(m));
}

describe('SettingsStore.load', () => {
  it('gives defaults without a warning when no file exists', async () => {
    expect(await store().load()).toEqual(defaultSettings());
    expect(warnings).toEqual([]);
  });

  it('round-trips through disk', async () => {
    const s = store();
    await s.addRecent('robot', 'rover.urdf', '/home/u/rover.urdf');
    await s.update({ showContacts: false });
    const again = await store().load();
    expect(again).toEqual({ showContacts: false, recentFiles: [{ kind: 'robot', name: 'rover.urdf', path: '/home/u/rover.urdf' }] });
  });

  it('regression: a truncated settings.json (crash mid-write) gives defaults plus one warning, no throw', async () => {
    writeFileSync(file, '{"recentFiles": [{"kind": "terr');
    expect(await store().load()).toEqual(defaultSettings());
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/not valid JSON; using defaults|not valid JSON/);
  });

  it('a wrong top-level type gives defaults plus a warning', async () => {
    writeFileSync(file, '[1,2,3]');
    expect(await store().load()).toEqual(defaultSettings());
    expect(warnings[0]).toMatch(/top level is not an object/);
  });

  it('keeps valid fields and drops only the bad recent entries', async () => {
    writeFileSync(
      file,
      JSON.stringify({
        showContacts: false,
        theme: 'dark',
        recentFiles: [
          { kind: 'terrain', name: 'ok.json', path: '/a/ok.json' },
          { kind: 'virus', name: 'x', path: '/x' },
          { kind: 'robot', name: '../r.urdf', path: '/r.urdf' },
          null,
          { kind: 'scenario', name: 's.json', path: '/s.json' },
        ],
      }),
    );
    const s = await store().load();
    expect(s.showContacts).toBe(false);
    expect(s.recentFiles.map((e) => e.name)).toEqual(['ok.json', 's.json']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/unknown field 'theme'/);
    expect(warnings[0]).toMatch(/recentFiles\[1\]\.kind/);
    expect(warnings[0]).toMatch(/recentFiles\[3\]: expected an object, got null/);
  });

  it('an unreadable file (I/O error) gives defaults and a warning', async () => {
    const io: SettingsIo = {
      readText: async () => {
        throw new Error('EACCES: permission denied');
      },
      writeTextAtomic: async () => {},
    };
    expect(await store(io).load()).toEqual(defaultSettings());
    expect(warnings[0]).toMatch(/cannot read .*EACCES/);
  });

  it('a failing write keeps the change in memory and warns instead of throwing', async () => {
    const io: SettingsIo = {
      readText: async () => null,
      writeTextAtomic: async () => {
        throw new Error('ENOSPC');
      },
    };
    const s = store(io);
    expect((await s.update({ showContacts: false })).showContacts).toBe(false);
    expect(warnings[0]).toMatch(/cannot write .*ENOSPC/);
  });
});

describe('SettingsStore.addRecent', () => {
  it('moves an existing path to the front and caps the list', async () => {
    const s = store();
    for (let i = 0; i < MAX_RECENT_FILES + 3; i++) await s.addRecent('terrain', `t${i}.json`, `/m/t${i}.json`);
    await s.addRecent('terrain', 't5.json', '/m/t5.json');
    const list = (await s.load()).recentFiles;
    expect(list).toHaveLength(MAX_RECENT_FILES);
    expect(list[0].path).toBe('/m/t5.json');
    expect(list.filter((e) => e.path === '/m/t5.json')).toHaveLength(1);
    expect(list[1].path).toBe(`/m/t${MAX_RECENT_FILES + 2}.json`);
  });

  it('snapshots are copies: mutating one does not change the store', async () => {
    const s = store();
    await s.addRecent('terrain', 'a.json', '/a.json');
    const snap = await s.load();
    snap.recentFiles[0].path = '/etc/passwd';
    snap.recentFiles.push({ kind: 'robot', name: 'x', path: '/x' });
    expect((await s.load()).recentFiles).toEqual([{ kind: 'terrain', name: 'a.json', path: '/a.json' }]);
  });

  it('writes pretty JSON atomically (no temp file left behind)', async () => {
    const s = store();
    await s.addRecent('scenario', 'a.json', '/a.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ recentFiles: [{ kind: 'scenario', name: 'a.json', path: '/a.json' }], showContacts: true });
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });
});

describe('sanitizeSettings', () => {
  it('reports nothing for a clean object', () => {
    expect(sanitizeSettings({ recentFiles: [], showContacts: true }).problems).toEqual([]);
  });
  it('reports a non-boolean showContacts and a non-array recentFiles', () => {
    const { settings, problems } = sanitizeSettings({ showContacts: 'no', recentFiles: 'x' });
    expect(settings).toEqual(defaultSettings());
    expect(problems).toEqual(['showContacts is not a boolean', 'recentFiles is not an array']);
  });
});
