import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../electron/ipc-contract';
import {
  IpcValidationError,
  MAX_RECENT_FILES,
  expectAssetPath,
  expectBytes,
  expectFileKind,
  expectIndex,
  expectPlainFileName,
  expectSaveRequest,
  expectSettingsPatch,
  expectTokenString,
  isMenuCommand,
} from '../../../electron/validate';

/** Runs `fn`, asserts it throws IpcValidationError whose message names `field` and matches `problem`. */
function rejects(fn: () => unknown, field: string, problem: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(IpcValidationError);
  const err = caught as IpcValidationError;
  expect(err.field).toBe(field);
  expect(err.message.startsWith(`${field}: `)).toBe(true);
  expect(err.message).toMatch(problem);
}

describe('expectFileKind', () => {
  it('accepts every FileKind', () => {
    for (const k of ['terrain', 'robot', 'scenario', 'recording']) expect(expectFileKind('k', k)).toBe(k);
  });
  it('rejects wrong types and unknown kinds with the field name', () => {
    rejects(() => expectFileKind('openFile.kind', 3), 'openFile.kind', /got number/);
    rejects(() => expectFileKind('openFile.kind', null), 'openFile.kind', /got null/);
    rejects(() => expectFileKind('openFile.kind', NaN), 'openFile.kind', /got NaN/);
    rejects(() => expectFileKind('openFile.kind', ['terrain']), 'openFile.kind', /got array/);
    rejects(() => expectFileKind('openFile.kind', 'Terrain'), 'openFile.kind', /unknown file kind "Terrain"/);
    rejects(() => expectFileKind('openFile.kind', '__proto__'), 'openFile.kind', /unknown file kind/);
  });
});

describe('expectPlainFileName', () => {
  it('accepts ordinary names including dots and spaces', () => {
    for (const n of ['hills.png', 'my terrain.v2.json', '.hidden', '..a', 'a..b', 'höhe.png']) expect(expectPlainFileName('n', n)).toBe(n);
  });
  it("rejects separators, '..', '.', empty, NUL, reserved characters and over-long names", () => {
    rejects(() => expectPlainFileName('f', '../secret'), 'f', /no '\/' or '\\'/);
    rejects(() => expectPlainFileName('f', 'a/b.png'), 'f', /plain file name/);
    rejects(() => expectPlainFileName('f', '..\\win.ini'), 'f', /plain file name/);
    rejects(() => expectPlainFileName('f', '/etc/passwd'), 'f', /plain file name/);
    rejects(() => expectPlainFileName('f', '..'), 'f', /not a file name/);
    rejects(() => expectPlainFileName('f', '.'), 'f', /not a file name/);
    rejects(() => expectPlainFileName('f', ''), 'f', /empty/);
    rejects(() => expectPlainFileName('f', 'a\0.png'), 'f', /control or reserved/);
    rejects(() => expectPlainFileName('f', 'C:evil'), 'f', /control or reserved/);
    rejects(() => expectPlainFileName('f', 'x'.repeat(LIMITS.maxNameLength + 1)), 'f', /limit is 255/);
    rejects(() => expectPlainFileName('f', undefined), 'f', /got undefined/);
    rejects(() => expectPlainFileName('f', { toString: () => 'a.png' }), 'f', /got object/);
  });
  it('accepts a name of exactly the maximum length', () => {
    expect(expectPlainFileName('f', 'x'.repeat(LIMITS.maxNameLength))).toHaveLength(LIMITS.maxNameLength);
  });
});

describe('expectAssetPath', () => {
  it('accepts nested relative paths', () => {
    expect(expectAssetPath('p', 'terrains/hills.json')).toBe('terrains/hills.json');
  });
  it('rejects traversal, absolute paths, backslashes, empty segments and long paths', () => {
    rejects(() => expectAssetPath('p', '../package.json'), 'p', /'\.\.'/);
    rejects(() => expectAssetPath('p', 'terrains/../../x'), 'p', /'\.\.'/);
    rejects(() => expectAssetPath('p', '/etc/passwd'), 'p', /relative/);
    rejects(() => expectAssetPath('p', 'terrains\\x.png'), 'p', /'\/' separators/);
    rejects(() => expectAssetPath('p', 'terrains//x.png'), 'p', /empty or '\.'/);
    rejects(() => expectAssetPath('p', './x.png'), 'p', /empty or '\.'/);
    rejects(() => expectAssetPath('p', 'C:/x.png'), 'p', /reserved/);
    rejects(() => expectAssetPath('p', 'a/'.repeat(600)), 'p', /limit is 1024/);
    rejects(() => expectAssetPath('p', 42), 'p', /got number/);
  });
});

describe('expectBytes', () => {
  it('accepts Uint8Array (and Buffer, which is one)', () => {
    expect(expectBytes('b', new Uint8Array(3)).byteLength).toBe(3);
    expect(expectBytes('b', Buffer.from('abc')).byteLength).toBe(3);
  });
  it('rejects other views, arrays, strings and ArrayBuffer', () => {
    rejects(() => expectBytes('b', new Float32Array(2)), 'b', /got Float32Array/);
    rejects(() => expectBytes('b', [1, 2, 3]), 'b', /got array/);
    rejects(() => expectBytes('b', 'abc'), 'b', /got string/);
    rejects(() => expectBytes('b', new ArrayBuffer(4)), 'b', /got object/);
  });
  it('rejects a payload larger than LIMITS.maxFileBytes without allocating it', () => {
    // A fake whose byteLength lies: real Uint8Array prototype, so instanceof passes.
    const huge = Object.create(Uint8Array.prototype, { byteLength: { value: LIMITS.maxFileBytes + 1 } }) as Uint8Array;
    rejects(() => expectBytes('saveFile.req.bytes', huge), 'saveFile.req.bytes', /exceeds the limit/);
  });
});

describe('expectTokenString', () => {
  it('rejects non-strings, empty and over-long tokens', () => {
    rejects(() => expectTokenString('t', 5), 't', /got number/);
    rejects(() => expectTokenString('t', ''), 't', /not a token/);
    rejects(() => expectTokenString('t', 'x'.repeat(1000)), 't', /not a token/);
  });
});

describe('expectSaveRequest', () => {
  const good = { kind: 'recording', suggestedName: 'run.twrec', bytes: new Uint8Array([1]) };
  it('accepts a well-formed request', () => {
    expect(expectSaveRequest('r', good).suggestedName).toBe('run.twrec');
  });
  it('rejects null, arrays, class instances, extra fields and bad members with their dotted field', () => {
    rejects(() => expectSaveRequest('saveFile.req', null), 'saveFile.req', /got null/);
    rejects(() => expectSaveRequest('saveFile.req', [good]), 'saveFile.req', /got array/);
    rejects(() => expectSaveRequest('saveFile.req', new Date()), 'saveFile.req', /plain object/);
    rejects(() => expectSaveRequest('saveFile.req', { ...good, path: '/tmp/x' }), 'saveFile.req.path', /unexpected field/);
    rejects(() => expectSaveRequest('saveFile.req', { ...good, kind: 'exe' }), 'saveFile.req.kind', /unknown file kind/);
    rejects(() => expectSaveRequest('saveFile.req', { ...good, suggestedName: '../../.bashrc' }), 'saveFile.req.suggestedName', /plain file name/);
    rejects(() => expectSaveRequest('saveFile.req', { ...good, bytes: 'AAAA' }), 'saveFile.req.bytes', /Uint8Array/);
    rejects(() => expectSaveRequest('saveFile.req', { kind: 'recording', bytes: new Uint8Array() }), 'saveFile.req.suggestedName', /got undefined/);
  });
});

describe('expectSettingsPatch', () => {
  it('accepts an empty patch and each known key', () => {
    expect(expectSettingsPatch('p', {})).toEqual({});
    expect(expectSettingsPatch('p', { showContacts: false })).toEqual({ showContacts: false });
    const recent = [{ kind: 'terrain', name: 'a.json', path: '/home/u/a.json' }];
    expect(expectSettingsPatch('p', { recentFiles: recent })).toEqual({ recentFiles: recent });
  });
  it('rejects unknown keys, wrong types, NaN and bad entries', () => {
    rejects(() => expectSettingsPatch('setSettings.patch', { theme: 'dark' }), 'setSettings.patch.theme', /unexpected field/);
    rejects(() => expectSettingsPatch('setSettings.patch', { showContacts: 'yes' }), 'setSettings.patch.showContacts', /boolean, got string/);
    rejects(() => expectSettingsPatch('setSettings.patch', { showContacts: NaN }), 'setSettings.patch.showContacts', /got NaN/);
    rejects(() => expectSettingsPatch('setSettings.patch', { recentFiles: {} }), 'setSettings.patch.recentFiles', /array/);
    rejects(
      () => expectSettingsPatch('setSettings.patch', { recentFiles: [{ kind: 'terrain', name: 'a', path: '' }] }),
      'setSettings.patch.recentFiles[0].path',
      /non-empty/,
    );
    rejects(
      () => expectSettingsPatch('setSettings.patch', { recentFiles: new Array(MAX_RECENT_FILES + 1).fill({ kind: 'terrain', name: 'a', path: '/a' }) }),
      'setSettings.patch.recentFiles',
      /exceeds the limit/,
    );
    rejects(() => expectSettingsPatch('setSettings.patch', null), 'setSettings.patch', /got null/);
  });
  it('does not let a __proto__ key through (JSON.parse-made objects carry it as an own key)', () => {
    const evil = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    rejects(() => expectSettingsPatch('setSettings.patch', evil), 'setSettings.patch.__proto__', /unexpected field/);
  });
});

describe('expectIndex', () => {
  it('accepts in-range integers and rejects everything else', () => {
    expect(expectIndex('i', 2, 3)).toBe(2);
    rejects(() => expectIndex('i', 3, 3), 'i', /out of range/);
    rejects(() => expectIndex('i', -1, 3), 'i', /out of range/);
    rejects(() => expectIndex('i', 1.5, 3), 'i', /integer/);
    rejects(() => expectIndex('i', NaN, 3), 'i', /got NaN/);
    rejects(() => expectIndex('i', '1', 3), 'i', /got string/);
    rejects(() => expectIndex('i', 0, 0), 'i', /out of range/);
  });
});

describe('isMenuCommand', () => {
  it('accepts exactly the MenuCommand shapes', () => {
    expect(isMenuCommand({ type: 'open', kind: 'robot' })).toBe(true);
    expect(isMenuCommand({ type: 'open-recent', index: 0 })).toBe(true);
    expect(isMenuCommand({ type: 'save-recording-as' })).toBe(true);
    expect(isMenuCommand({ type: 'open', kind: 'exe' })).toBe(false);
    expect(isMenuCommand({ type: 'open-recent', index: -1 })).toBe(false);
    expect(isMenuCommand({ type: 'quit' })).toBe(false);
    expect(isMenuCommand(null)).toBe(false);
  });
});
