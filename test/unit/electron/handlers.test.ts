import { linkSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyAsset } from '../../../electron/asset-kind';
import { DIALOG_FILTERS, saveFilters } from '../../../electron/dialog-filters';
import { createHandlers, HANDLED_CHANNELS, HostFileError, type HostDialogs, type HostFiles } from '../../../electron/handlers';
import { IPC, IPC_OPEN_RECENT, LIMITS, type FileKind, type SaveKind, type Settings } from '../../../electron/ipc-contract';
import { nodeFiles, nodeSettingsIo } from '../../../electron/node-files';
import { SettingsStore } from '../../../electron/settings-store';
import { TokenRegistry } from '../../../electron/token-registry';
import { IpcValidationError } from '../../../electron/validate';
import { MESH_MAX_BYTES } from '../../../sim/robot/urdf/urdf-error';

/** Scripted dialogs: each call pops the next answer and records what was asked. */
class FakeDialogs implements HostDialogs {
  openAnswers: (string | null)[] = [];
  saveAnswers: (string | null)[] = [];
  asked: { op: 'open' | 'save'; kind: SaveKind; suggestedName?: string }[] = [];
  async showOpen(kind: FileKind): Promise<string | null> {
    this.asked.push({ op: 'open', kind });
    return this.openAnswers.shift() ?? null;
  }
  async showSave(kind: SaveKind, suggestedName: string): Promise<string | null> {
    this.asked.push({ op: 'save', kind, suggestedName });
    return this.saveAnswers.shift() ?? null;
  }
}

let dir: string;
let dialogs: FakeDialogs;
let warnings: string[];
let recentEvents: Settings[];
let tokenCounter: number;

function setup(files: HostFiles = nodeFiles) {
  const settings = new SettingsStore(nodeSettingsIo, path.join(dir, 'userData', 'settings.json'), (m) => warnings.push(m));
  const tokens = new TokenRegistry(() => `tok-${++tokenCounter}`);
  const handlers = createHandlers({
    files,
    dialogs,
    settings,
    tokens,
    assetsRoot: path.join(dir, 'app', 'assets'),
    onRecentChanged: (s) => recentEvents.push(s),
  });
  return { handlers, settings, tokens };
}

async function expectValidationError(p: Promise<unknown>, field: string, problem: RegExp): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(IpcValidationError);
  expect((err as IpcValidationError).field).toBe(field);
  expect((err as Error).message).toMatch(problem);
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-handlers-'));
  mkdirSync(path.join(dir, 'user', 'maps'), { recursive: true });
  mkdirSync(path.join(dir, 'app', 'assets', 'terrains'), { recursive: true });
  mkdirSync(path.join(dir, 'app', 'assets', 'scenarios'), { recursive: true });
  writeFileSync(path.join(dir, 'user', 'maps', 'hills.json'), '{"image":"hills.png"}');
  writeFileSync(path.join(dir, 'user', 'maps', 'hills.png'), Buffer.from([137, 80, 78, 71]));
  writeFileSync(path.join(dir, 'user', 'secret.txt'), 'do not read');
  writeFileSync(path.join(dir, 'app', 'assets', 'terrains', 'flat.json'), '{}');
  writeFileSync(path.join(dir, 'app', 'assets', 'terrains', 'flat.png'), Buffer.from([1, 2]));
  writeFileSync(path.join(dir, 'app', 'assets', 'scenarios', 'default.json'), '{"s":1}');
  writeFileSync(path.join(dir, 'app', 'assets', 'scenarios', '.DS_Store'), 'junk');
  writeFileSync(path.join(dir, 'app', 'package.json'), '{}');
  dialogs = new FakeDialogs();
  warnings = [];
  recentEvents = [];
  tokenCounter = 0;
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('openFile', () => {
  it('reads the chosen file, issues a token for its directory and records it as recent', async () => {
    const { handlers, tokens } = setup();
    const chosen = path.join(dir, 'user', 'maps', 'hills.json');
    dialogs.openAnswers.push(chosen);
    const opened = await handlers.openFile('terrain');
    expect(opened).not.toBeNull();
    expect(opened?.name).toBe('hills.json');
    expect(opened?.kind).toBe('terrain');
    expect(new TextDecoder().decode(opened?.bytes)).toBe('{"image":"hills.png"}');
    expect(tokens.resolve(opened?.token ?? '')).toBe(path.join(dir, 'user', 'maps'));
    expect(dialogs.asked).toEqual([{ op: 'open', kind: 'terrain' }]);
    const s = await handlers.getSettings();
    expect(s.recentFiles).toEqual([{ kind: 'terrain', name: 'hills.json', path: chosen }]);
    expect(recentEvents).toHaveLength(1);
    // persisted to disk
    const disk = JSON.parse(readFileSync(path.join(dir, 'userData', 'settings.json'), 'utf8')) as Settings;
    expect(disk.recentFiles[0].path).toBe(chosen);
  });

  it('returns null when the user cancels and changes nothing', async () => {
    const { handlers } = setup();
    expect(await handlers.openFile('robot')).toBeNull();
    expect((await handlers.getSettings()).recentFiles).toEqual([]);
    expect(recentEvents).toHaveLength(0);
  });

  it('rejects a bad kind before showing any dialog', async () => {
    const { handlers } = setup();
    await expectValidationError(handlers.openFile('../etc'), 'openFile.kind', /unknown file kind/);
    await expectValidationError(handlers.openFile(undefined), 'openFile.kind', /got undefined/);
    expect(dialogs.asked).toHaveLength(0);
  });

  it('refuses a chosen file larger than LIMITS.maxFileBytes without reading it', async () => {
    let reads = 0;
    const bigFiles: HostFiles = {
      ...nodeFiles,
      stat: async () => ({ size: LIMITS.maxFileBytes + 1, isFile: true }),
      readFile: async () => {
        reads++;
        return new Uint8Array();
      },
    };
    const { handlers } = setup(bigFiles);
    dialogs.openAnswers.push(path.join(dir, 'user', 'huge.raw'));
    await expect(handlers.openFile('terrain')).rejects.toThrow(/'huge.raw' is 2147483648 bytes; the limit is 2147483647 bytes/);
    expect(reads).toBe(0);
  });

  it('refuses a directory', async () => {
    const { handlers } = setup();
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps'));
    await expect(handlers.openFile('terrain')).rejects.toThrow(HostFileError);
  });
});

describe('readRelated', () => {
  it('reads a plain file name beside the opened file', async () => {
    const { handlers } = setup();
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'hills.json'));
    const opened = await handlers.openFile('terrain');
    const png = await handlers.readRelated(opened?.token, 'hills.png');
    expect(Array.from(png)).toEqual([137, 80, 78, 71]);
  });

  it("rejects '../', '/', absolute and Windows-style names, so only the chosen directory is reachable", async () => {
    const { handlers } = setup();
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'hills.json'));
    const token = (await handlers.openFile('terrain'))?.token;
    await expectValidationError(handlers.readRelated(token, '../secret.txt'), 'readRelated.relativeName', /plain file name/);
    await expectValidationError(handlers.readRelated(token, path.join(dir, 'user', 'secret.txt')), 'readRelated.relativeName', /plain file name/);
    await expectValidationError(handlers.readRelated(token, '..\\secret.txt'), 'readRelated.relativeName', /plain file name/);
    await expectValidationError(handlers.readRelated(token, '..'), 'readRelated.relativeName', /not a file name/);
    await expectValidationError(handlers.readRelated(token, null), 'readRelated.relativeName', /got null/);
  });

  it('rejects tokens main never issued', async () => {
    const { handlers } = setup();
    await expectValidationError(handlers.readRelated('tok-1', 'hills.png'), 'readRelated.token', /not a token issued by this app/);
    await expectValidationError(handlers.readRelated(path.join(dir, 'user'), 'secret.txt'), 'readRelated.token', /not a token issued/);
    await expectValidationError(handlers.readRelated(1, 'hills.png'), 'readRelated.token', /got number/);
  });

  it('reports a missing related file clearly', async () => {
    const { handlers } = setup();
    writeFileSync(path.join(dir, 'user', 'maps', 'gone.json'), '{"image":"nope.png"}');
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'gone.json'));
    const token = (await handlers.openFile('terrain'))?.token;
    await expect(handlers.readRelated(token, 'nope.png')).rejects.toThrow("'nope.png' does not exist");
  });
});

describe('readRelated is limited to the files the opened file names (issue #18)', () => {
  it('refuses any other file beside the chosen one, and dotfiles', async () => {
    const { handlers } = setup();
    writeFileSync(path.join(dir, 'user', 'maps', 'notes.txt'), 'private');
    writeFileSync(path.join(dir, 'user', 'maps', '.env'), 'TOKEN=1');
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'hills.json'));
    const token = (await handlers.openFile('terrain'))?.token;
    await expectValidationError(handlers.readRelated(token, 'notes.txt'), 'readRelated.relativeName', /'notes.txt' is not a file the opened file names \(it may read only 'hills.png'\)/);
    await expectValidationError(handlers.readRelated(token, 'hills.json'), 'readRelated.relativeName', /not a file the opened file names/);
    await expectValidationError(handlers.readRelated(token, '.env'), 'readRelated.relativeName', /dotfile/);
    expect(Array.from(await handlers.readRelated(token, 'hills.png'))).toEqual([137, 80, 78, 71]);
  });

  it('a sidecar naming a dotfile or ../ gets nothing', async () => {
    const { handlers } = setup();
    writeFileSync(path.join(dir, 'user', 'maps', 'dot.json'), '{"image":".hidden.png"}');
    writeFileSync(path.join(dir, 'user', 'maps', '.hidden.png'), 'x');
    writeFileSync(path.join(dir, 'user', 'maps', 'up.json'), '{"image":"../secret.txt"}');
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'dot.json'), path.join(dir, 'user', 'maps', 'up.json'));
    const t1 = (await handlers.openFile('terrain'))?.token;
    await expectValidationError(handlers.readRelated(t1, '.hidden.png'), 'readRelated.relativeName', /dotfile/);
    const t2 = (await handlers.openFile('terrain'))?.token;
    await expectValidationError(handlers.readRelated(t2, 'secret.txt'), 'readRelated.relativeName', /may read only nothing/);
  });

  it('follows scenario → sidecar → image as a chain, nothing more', async () => {
    const { handlers } = setup();
    writeFileSync(path.join(dir, 'user', 'maps', 'run.json'), '{"terrain":"hills.json"}');
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'run.json'));
    const token = (await handlers.openFile('scenario'))?.token;
    await expectValidationError(handlers.readRelated(token, 'hills.png'), 'readRelated.relativeName', /not a file the opened file names/);
    expect(new TextDecoder().decode(await handlers.readRelated(token, 'hills.json'))).toBe('{"image":"hills.png"}');
    expect(Array.from(await handlers.readRelated(token, 'hills.png'))).toEqual([137, 80, 78, 71]);
  });

  it('follows scenario → robot URDF → its plain-named meshes, nothing more', async () => {
    const { handlers } = setup();
    writeFileSync(path.join(dir, 'user', 'maps', 'run.json'), '{"terrain":"hills.json","robot":{"urdf":"bot.urdf"}}');
    writeFileSync(path.join(dir, 'user', 'maps', 'bot.urdf'), '<robot name="b"><link name="l"><collision><geometry><mesh filename="./body.stl"/></geometry></collision></link></robot>');
    writeFileSync(path.join(dir, 'user', 'maps', 'body.stl'), 'solid');
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'run.json'));
    const token = (await handlers.openFile('scenario'))?.token;
    await expectValidationError(handlers.readRelated(token, 'body.stl'), 'readRelated.relativeName', /not a file the opened file names/);
    expect(new TextDecoder().decode(await handlers.readRelated(token, 'bot.urdf'))).toContain('body.stl');
    expect(new TextDecoder().decode(await handlers.readRelated(token, 'body.stl'))).toBe('solid');
  });

  it('refuses a mesh over MESH_MAX_BYTES named by a URDF without reading it (issue #28)', async () => {
    const reads: string[] = [];
    const { handlers } = setup({ ...nodeFiles, readFile: (p: string) => (reads.push(path.basename(p)), nodeFiles.readFile(p)) });
    writeFileSync(path.join(dir, 'user', 'maps', 'bot.urdf'), '<robot name="b"><link name="l"><collision><geometry><mesh filename="body.stl"/></geometry></collision></link></robot>');
    writeFileSync(path.join(dir, 'user', 'maps', 'body.stl'), '');
    truncateSync(path.join(dir, 'user', 'maps', 'body.stl'), MESH_MAX_BYTES + 1);
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'bot.urdf'));
    const token = (await handlers.openFile('scenario'))?.token;
    const message = await handlers.readRelated(token, 'body.stl').then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    expect(message).toMatch(new RegExp(`'body.stl' is ${MESH_MAX_BYTES + 1} bytes; a robot mesh may be at most ${MESH_MAX_BYTES} bytes`));
    expect(reads).not.toContain('body.stl');
  });

  it('refuses a hard link even when the sidecar names it (issue #28)', async () => {
    const { handlers } = setup();
    writeFileSync(path.join(dir, 'user', 'maps', 'hard.json'), '{"image":"hard.png"}');
    linkSync(path.join(dir, 'user', 'secret.txt'), path.join(dir, 'user', 'maps', 'hard.png'));
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'hard.json'));
    const token = (await handlers.openFile('terrain'))?.token;
    await expect(handlers.readRelated(token, 'hard.png')).rejects.toThrow(/'hard.png' has 2 names \(a hard link\)/);
  });

  it('refuses a symbolic link even when the sidecar names it', async () => {
    const { handlers } = setup();
    writeFileSync(path.join(dir, 'user', 'maps', 'link.json'), '{"image":"link.png"}');
    symlinkSync(path.join(dir, 'user', 'secret.txt'), path.join(dir, 'user', 'maps', 'link.png'));
    dialogs.openAnswers.push(path.join(dir, 'user', 'maps', 'link.json'));
    const token = (await handlers.openFile('terrain'))?.token;
    await expect(handlers.readRelated(token, 'link.png')).rejects.toThrow(/'link.png' is reached through a symbolic link/);
  });

  it('readAsset refuses a symbolic link inside assets/ (file or folder)', async () => {
    const { handlers } = setup();
    symlinkSync(path.join(dir, 'user', 'secret.txt'), path.join(dir, 'app', 'assets', 'terrains', 'evil.png'));
    symlinkSync(path.join(dir, 'user'), path.join(dir, 'app', 'assets', 'linked'));
    await expect(handlers.readAsset('terrains/evil.png')).rejects.toThrow(/symbolic link/);
    await expect(handlers.readAsset('linked/secret.txt')).rejects.toThrow(/symbolic link/);
  });
});

describe('saveFile', () => {
  it('writes the bytes where the user chose, returns the bare name, adds recordings to recent', async () => {
    const { handlers } = setup();
    const target = path.join(dir, 'user', 'run1.twrec');
    dialogs.saveAnswers.push(target);
    const res = await handlers.saveFile({ kind: 'recording', suggestedName: 'run.twrec', bytes: new Uint8Array([9, 8, 7]) });
    expect(res).toEqual({ name: 'run1.twrec' });
    expect(Array.from(readFileSync(target))).toEqual([9, 8, 7]);
    expect(dialogs.asked).toEqual([{ op: 'save', kind: 'recording', suggestedName: 'run.twrec' }]);
    expect((await handlers.getSettings()).recentFiles[0]).toEqual({ kind: 'recording', name: 'run1.twrec', path: target });
  });

  it('saves captures (a PNG screenshot, a WebM video) where the user chose, without adding them to recent files', async () => {
    const { handlers } = setup();
    const png = path.join(dir, 'user', 'shot.png');
    const webm = path.join(dir, 'user', 'clip.webm');
    dialogs.saveAnswers.push(png, webm);
    const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]);
    const webmBytes = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2]);
    expect(await handlers.saveFile({ kind: 'image', suggestedName: 'terrawheel.png', bytes: pngBytes })).toEqual({ name: 'shot.png' });
    expect(await handlers.saveFile({ kind: 'video', suggestedName: 'terrawheel.webm', bytes: webmBytes })).toEqual({ name: 'clip.webm' });
    expect(Array.from(readFileSync(png))).toEqual(Array.from(pngBytes));
    expect(Array.from(readFileSync(webm))).toEqual(Array.from(webmBytes));
    expect(dialogs.asked).toEqual([
      { op: 'save', kind: 'image', suggestedName: 'terrawheel.png' },
      { op: 'save', kind: 'video', suggestedName: 'terrawheel.webm' },
    ]);
    expect((await handlers.getSettings()).recentFiles).toEqual([]);
    expect(saveFilters('image')[0].extensions).toEqual(['png']);
    expect(saveFilters('video')[0].extensions).toEqual(['webm']);
    expect(saveFilters('recording')).toBe(DIALOG_FILTERS.recording);
    await expectValidationError(handlers.saveFile({ kind: 'exe', suggestedName: 'a.exe', bytes: new Uint8Array(1) }), 'saveFile.req.kind', /unknown file kind "exe"/);
  });

  it('returns null on cancel and writes nothing', async () => {
    const { handlers } = setup();
    expect(await handlers.saveFile({ kind: 'scenario', suggestedName: 's.json', bytes: new Uint8Array(1) })).toBeNull();
  });

  it('rejects bad payloads before the dialog opens', async () => {
    const { handlers } = setup();
    await expectValidationError(handlers.saveFile(null), 'saveFile.req', /got null/);
    await expectValidationError(
      handlers.saveFile({ kind: 'recording', suggestedName: '../../.bashrc', bytes: new Uint8Array(1) }),
      'saveFile.req.suggestedName',
      /plain file name/,
    );
    await expectValidationError(
      handlers.saveFile({ kind: 'recording', suggestedName: 'a.twrec', bytes: [1, 2] }),
      'saveFile.req.bytes',
      /Uint8Array, got array/,
    );
    await expectValidationError(
      handlers.saveFile({ kind: 'recording', suggestedName: 'a.twrec', bytes: new Uint8Array(1), path: '/etc/x' }),
      'saveFile.req.path',
      /unexpected field/,
    );
    expect(dialogs.asked).toHaveLength(0);
  });
});

describe('assets', () => {
  it('lists bundled assets sorted, with kinds and sizes, skipping hidden files', async () => {
    const { handlers } = setup();
    expect(await handlers.listAssets()).toEqual([
      { path: 'scenarios/default.json', kind: 'scenario', size: 7 },
      { path: 'terrains/flat.json', kind: 'terrain', size: 2 },
      { path: 'terrains/flat.png', kind: 'terrain-image', size: 2 },
    ]);
  });

  it('reads an asset by relative path', async () => {
    const { handlers } = setup();
    expect(new TextDecoder().decode(await handlers.readAsset('scenarios/default.json'))).toBe('{"s":1}');
  });

  it('refuses to leave assets/', async () => {
    const { handlers } = setup();
    await expectValidationError(handlers.readAsset('../package.json'), 'readAsset.path', /'\.\.'/);
    await expectValidationError(handlers.readAsset('/etc/passwd'), 'readAsset.path', /relative/);
    await expectValidationError(handlers.readAsset('terrains\\..\\..\\package.json'), 'readAsset.path', /separators/);
    await expect(handlers.readAsset('terrains/missing.png')).rejects.toThrow("'terrains/missing.png' does not exist");
  });

  it('classifies asset kinds by folder and extension', () => {
    expect(classifyAsset('terrains/a.json')).toBe('terrain');
    expect(classifyAsset('terrains/a.PNG')).toBe('terrain-image');
    expect(classifyAsset('elsewhere/h.f32')).toBe('terrain-image');
    expect(classifyAsset('robots/rover.json')).toBe('robot');
    expect(classifyAsset('scenarios/noext')).toBe('other');
    expect(classifyAsset('terrains/README.md')).toBe('other');
    expect(classifyAsset('robots/rover.urdf')).toBe('robot');
    expect(classifyAsset('scenarios/x.json')).toBe('scenario');
    expect(classifyAsset('recordings/x.twrec')).toBe('recording');
    expect(classifyAsset('manifest.json')).toBe('other');
  });
});

describe('settings', () => {
  it('returns defaults first and applies a valid patch', async () => {
    const { handlers } = setup();
    expect(await handlers.getSettings()).toEqual({ recentFiles: [], showContacts: true });
    expect((await handlers.setSettings({ showContacts: false })).showContacts).toBe(false);
    expect((await handlers.getSettings()).showContacts).toBe(false);
  });

  it('allows removing and reordering recent entries but never adding a path', async () => {
    const { handlers } = setup();
    const a = path.join(dir, 'user', 'maps', 'hills.json');
    const b = path.join(dir, 'user', 'maps', 'hills.png');
    dialogs.openAnswers.push(a, b);
    await handlers.openFile('terrain');
    await handlers.openFile('terrain');
    const s = await handlers.getSettings();
    expect(s.recentFiles.map((e) => e.name)).toEqual(['hills.png', 'hills.json']);
    const reordered = await handlers.setSettings({ recentFiles: [s.recentFiles[1], s.recentFiles[0]] });
    expect(reordered.recentFiles.map((e) => e.name)).toEqual(['hills.json', 'hills.png']);
    const removed = await handlers.setSettings({ recentFiles: [s.recentFiles[0]] });
    expect(removed.recentFiles).toHaveLength(1);
    await expectValidationError(
      handlers.setSettings({ recentFiles: [{ kind: 'terrain', name: 'secret.txt', path: path.join(dir, 'user', 'secret.txt') }] }),
      'setSettings.patch.recentFiles[0]',
      /can only be removed or reordered/,
    );
    // same path under a different kind is also a new entry
    await expectValidationError(
      handlers.setSettings({ recentFiles: [{ ...s.recentFiles[0], kind: 'robot' }] }),
      'setSettings.patch.recentFiles[0]',
      /can only be removed or reordered/,
    );
  });

  it('rejects malformed patches', async () => {
    const { handlers } = setup();
    await expectValidationError(handlers.setSettings({ showContacts: 1 }), 'setSettings.patch.showContacts', /boolean/);
    await expectValidationError(handlers.setSettings({ extra: true }), 'setSettings.patch.extra', /unexpected field/);
    await expectValidationError(handlers.setSettings(undefined), 'setSettings.patch', /got undefined/);
  });
});

describe('openRecent', () => {
  it('re-opens a recent entry and moves it to the front', async () => {
    const { handlers } = setup();
    const a = path.join(dir, 'user', 'maps', 'hills.json');
    const b = path.join(dir, 'user', 'maps', 'hills.png');
    dialogs.openAnswers.push(a, b);
    await handlers.openFile('terrain');
    await handlers.openFile('terrain');
    const opened = await handlers.openRecent(1);
    expect(opened.name).toBe('hills.json');
    expect(dialogs.asked).toHaveLength(2); // no dialog for a recent file
    expect((await handlers.getSettings()).recentFiles[0].path).toBe(a);
  });

  it('drops an entry whose file vanished and says so', async () => {
    const { handlers } = setup();
    const a = path.join(dir, 'user', 'maps', 'hills.json');
    dialogs.openAnswers.push(a);
    await handlers.openFile('terrain');
    rmSync(a);
    await expect(handlers.openRecent(0)).rejects.toThrow("'hills.json' does not exist");
    expect((await handlers.getSettings()).recentFiles).toEqual([]);
  });

  it('rejects out-of-range, NaN and non-integer indices', async () => {
    const { handlers } = setup();
    await expectValidationError(handlers.openRecent(0), 'openRecent.index', /out of range/);
    await expectValidationError(handlers.openRecent(NaN), 'openRecent.index', /got NaN/);
    await expectValidationError(handlers.openRecent('0'), 'openRecent.index', /got string/);
  });
});

describe('dispatch', () => {
  it('routes every handled channel and checks arity', async () => {
    const { handlers } = setup();
    expect(HANDLED_CHANNELS).toContain(IPC_OPEN_RECENT);
    expect(HANDLED_CHANNELS).not.toContain(IPC.menuCommand);
    expect(await handlers.dispatch(IPC.getSettings, [])).toEqual({ recentFiles: [], showContacts: true });
    expect(await handlers.dispatch(IPC.openFile, ['scenario'])).toBeNull();
    await expectValidationError(handlers.dispatch(IPC.getSettings, [1]), IPC.getSettings, /expected 0 argument\(s\), got 1/);
    await expectValidationError(handlers.dispatch(IPC.readRelated, ['t']), IPC.readRelated, /expected 2/);
    await expectValidationError(handlers.dispatch('host:exec', []), 'channel', /unknown IPC channel/);
    await expectValidationError(handlers.dispatch('toString', []), 'channel', /unknown IPC channel/);
    await expectValidationError(handlers.dispatch('__proto__', []), 'channel', /unknown IPC channel/);
  });
});
