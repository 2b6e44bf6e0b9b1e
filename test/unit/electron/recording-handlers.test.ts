/**
 * recording:begin / append / end and Open Recording… in electron/handlers.ts, with node:fs on a
 * temp directory and scripted dialogs: chunks land in order in the chosen file; ids, types and
 * sizes are validated (≤ 64 MiB per call, unknown or ended ids refused); a cancelled dialog
 * gives null; the finished file joins the recent files; an opened recording over the cap is
 * refused with its size and the limit.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandlers, HANDLED_CHANNELS, HostFileError, type HostDialogs, type HostFiles } from '../../../electron/handlers';
import { IPC_RECORDING, MAX_OPEN_RECORDING_BYTES, MAX_RECORDING_APPEND_BYTES, type FileKind } from '../../../electron/ipc-contract';
import { nodeFiles, nodeSettingsIo } from '../../../electron/node-files';
import { SettingsStore } from '../../../electron/settings-store';
import { TokenRegistry } from '../../../electron/token-registry';
import { IpcValidationError } from '../../../electron/validate';

class FakeDialogs implements HostDialogs {
  openAnswers: (string | null)[] = [];
  saveAnswers: (string | null)[] = [];
  async showOpen(_kind: FileKind): Promise<string | null> {
    return this.openAnswers.shift() ?? null;
  }
  async showSave(_kind: FileKind, _suggestedName: string): Promise<string | null> {
    return this.saveAnswers.shift() ?? null;
  }
}

let dir: string;
let dialogs: FakeDialogs;

function setup(files: HostFiles = nodeFiles) {
  const settings = new SettingsStore(nodeSettingsIo, path.join(dir, 'settings.json'), () => undefined);
  let n = 0;
  return createHandlers({ files, dialogs, settings, tokens: new TokenRegistry(() => `tok-${++n}`), assetsRoot: path.join(dir, 'assets') });
}

async function rejectsWith(p: Promise<unknown>, type: new (...a: never[]) => Error, re: RegExp): Promise<void> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(type);
  expect((err as Error).message).toMatch(re);
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-rec-handlers-'));
  dialogs = new FakeDialogs();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('recording handlers', () => {
  it('begin → append × n → end writes the chunks in order and adds the file to the recent list', async () => {
    const h = setup();
    const target = path.join(dir, 'drive.mcap');
    dialogs.saveAnswers.push(target);
    const begun = await h.dispatch(IPC_RECORDING.begin, ['run.mcap']);
    expect(begun).toEqual({ id: 'rec-1', name: 'drive.mcap' });
    await h.dispatch(IPC_RECORDING.append, ['rec-1', new Uint8Array([1, 2, 3])]);
    await h.dispatch(IPC_RECORDING.append, ['rec-1', new Uint8Array([4])]);
    expect(await h.dispatch(IPC_RECORDING.end, ['rec-1'])).toEqual({ name: 'drive.mcap', bytes: 4 });
    expect([...readFileSync(target)]).toEqual([1, 2, 3, 4]);
    expect((await h.getSettings()).recentFiles[0]).toEqual({ kind: 'recording', name: 'drive.mcap', path: target });
    // ended: the id is gone
    await rejectsWith(h.recordingAppend('rec-1', new Uint8Array([5])), IpcValidationError, /not a recording in progress/);
    expect(HANDLED_CHANNELS).toEqual(expect.arrayContaining(Object.values(IPC_RECORDING)));
  });

  it('end waits for an append still writing and reports the size after it landed (issue #28)', async () => {
    // a disk that holds each write until the test releases it
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const slow: HostFiles = {
      ...nodeFiles,
      async openWriter(p: string) {
        const w = await nodeFiles.openWriter!(p);
        return {
          write: async (b: Uint8Array) => {
            pending++;
            await gate;
            await w.write(b);
            pending--;
          },
          close: () => {
            if (pending > 0) closedWhileWriting = true;
            return w.close();
          },
        };
      },
    };
    let pending = 0;
    let closedWhileWriting = false;
    const h = setup(slow);
    const target = path.join(dir, 'slow.mcap');
    dialogs.saveAnswers.push(target);
    const { id } = (await h.recordingBegin('slow.mcap'))!;
    const appended = h.recordingAppend(id, new Uint8Array([7, 8, 9]));
    const ended = h.recordingEnd(id);
    release();
    await appended;
    expect(await ended).toEqual({ name: 'slow.mcap', bytes: 3 });
    expect(closedWhileWriting, 'the file was closed under a write').toBe(false);
    expect([...readFileSync(target)]).toEqual([7, 8, 9]);
  });

  it('a cancelled save dialog gives null and no file', async () => {
    const h = setup();
    expect(await h.recordingBegin('run.mcap')).toBeNull();
  });

  it('validates ids, types, sizes and the suggested name', async () => {
    const h = setup();
    dialogs.saveAnswers.push(path.join(dir, 'a.mcap'));
    const { id } = (await h.recordingBegin('a.mcap'))!;
    await rejectsWith(h.recordingAppend('rec-99', new Uint8Array(1)), IpcValidationError, /not a recording in progress/);
    await rejectsWith(h.recordingAppend('../etc', new Uint8Array(1)), IpcValidationError, /expected a recording id/);
    await rejectsWith(h.recordingAppend(7, new Uint8Array(1)), IpcValidationError, /expected a recording id/);
    await rejectsWith(h.recordingAppend(id, [1, 2, 3]), IpcValidationError, /expected a Uint8Array/);
    await rejectsWith(h.recordingAppend(id, new ArrayBuffer(4)), IpcValidationError, /expected a Uint8Array/);
    await rejectsWith(h.recordingAppend(id, new Uint8Array(MAX_RECORDING_APPEND_BYTES + 1)), IpcValidationError, /exceeds the limit of 67108864 per call/);
    await rejectsWith(h.recordingBegin('../../x.mcap'), IpcValidationError, /recordingBegin\.suggestedName|directories|plain/i);
    await rejectsWith(h.dispatch(IPC_RECORDING.append, [id]), IpcValidationError, /expected 2 argument/);
    await rejectsWith(h.recordingEnd('rec-2'), IpcValidationError, /not a recording in progress/);
    await h.recordingEnd(id);
  });

  it('overlapping appends to one recording are refused (chunks must stay in order)', async () => {
    let release: () => void = () => undefined;
    const written: number[] = [];
    const files: HostFiles = {
      ...nodeFiles,
      openWriter: async () => ({
        write: (b) => new Promise<void>((res) => {
          written.push(...b);
          release = res;
        }),
        close: async () => undefined,
      }),
    };
    const h = setup(files);
    dialogs.saveAnswers.push(path.join(dir, 'b.mcap'));
    const { id } = (await h.recordingBegin('b.mcap'))!;
    const first = h.recordingAppend(id, new Uint8Array([1]));
    await rejectsWith(h.recordingAppend(id, new Uint8Array([2])), IpcValidationError, /still writing/);
    release();
    await first;
    expect(written).toEqual([1]);
  });

  it('Open Recording… refuses a file over the cap with its size and the limit', async () => {
    const big = path.join(dir, 'big.mcap');
    const files: HostFiles = { ...nodeFiles, stat: async () => ({ size: MAX_OPEN_RECORDING_BYTES + 1, isFile: true }) };
    const h = setup(files);
    dialogs.openAnswers.push(big);
    await rejectsWith(h.openFile('recording'), HostFileError, /1073741825 bytes; recordings up to 1073741824 bytes \(1 GiB\)/);
  });
});
