/**
 * The results IPC (issue #31): a sweep's output directory opened through a directory dialog,
 * its recordings read by run id only, every payload validated in main.
 */
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandlers, HANDLED_CHANNELS, HostFileError, type HostDialogs } from '../../../electron/handlers';
import { IPC_RESULTS, type FileKind } from '../../../electron/ipc-contract';
import { nodeFiles, nodeSettingsIo } from '../../../electron/node-files';
import { SettingsStore } from '../../../electron/settings-store';
import { TokenRegistry } from '../../../electron/token-registry';
import { IpcValidationError } from '../../../electron/validate';

let dir: string;
let answers: (string | null)[];

class Dialogs implements HostDialogs {
  async showOpen(_kind: FileKind): Promise<string | null> {
    return answers.shift() ?? null;
  }
  async showSave(): Promise<string | null> {
    return null;
  }
  async showOpenDirectory(): Promise<string | null> {
    return answers.shift() ?? null;
  }
}

function setup() {
  let n = 0;
  return createHandlers({
    files: nodeFiles,
    dialogs: new Dialogs(),
    settings: new SettingsStore(nodeSettingsIo, path.join(dir, 'userData', 'settings.json'), () => undefined),
    tokens: new TokenRegistry(() => `tok-${++n}`),
    assetsRoot: path.join(dir, 'assets'),
  });
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-results-ipc-'));
  mkdirSync(path.join(dir, 'out', 'runs'), { recursive: true });
  writeFileSync(path.join(dir, 'out', 'results.csv'), 'id,robot.maxTorque,replicate,seed,distance,steps,fault,stateHash\nr0000,10,0,1,1.5,100,,0123456789abcdef\n');
  writeFileSync(path.join(dir, 'out', 'runs', 'r0000.mcap'), Buffer.from([1, 2, 3]));
  writeFileSync(path.join(dir, 'out', 'runs', 'notes.txt'), 'x');
  mkdirSync(path.join(dir, 'scenario'));
  mkdirSync(path.join(dir, 'scenario', 'runs'));
  writeFileSync(path.join(dir, 'scenario', 'runs', 'r0000.mcap'), Buffer.from([9]));
  writeFileSync(path.join(dir, 'scenario', 's.json'), '{}');
  answers = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('results IPC', () => {
  it('opens a results directory: its CSV and its recorded ids; reads a run by id', async () => {
    const h = setup();
    expect(HANDLED_CHANNELS).toContain(IPC_RESULTS.open);
    expect(HANDLED_CHANNELS).toContain(IPC_RESULTS.readRecording);
    answers.push(path.join(dir, 'out'));
    const r = await h.dispatch(IPC_RESULTS.open, []) as { name: string; csv: string; token: string; recordings: string[] };
    expect(r.name).toBe('out');
    expect(r.csv).toMatch(/^id,robot\.maxTorque/);
    expect(r.recordings).toEqual(['r0000']);
    const f = await h.dispatch(IPC_RESULTS.readRecording, [r.token, 'r0000']) as { kind: string; name: string; bytes: Uint8Array };
    expect(f.kind).toBe('recording');
    expect(f.name).toBe('r0000.mcap');
    expect([...f.bytes]).toEqual([1, 2, 3]);
    // cancelled
    expect(await h.openResults()).toBeNull();
  });

  it('validates the payload: a path as id, a foreign token, a missing recording, a directory without results.csv', async () => {
    const h = setup();
    answers.push(path.join(dir, 'out'));
    const r = (await h.openResults())!;
    for (const bad of ['../secret', 'runs/r0000', 'r0000.mcap', '', 'x'.repeat(65), 7, null]) {
      await expect(h.dispatch(IPC_RESULTS.readRecording, [r.token, bad])).rejects.toBeInstanceOf(IpcValidationError);
    }
    await expect(h.dispatch(IPC_RESULTS.readRecording, [r.token])).rejects.toThrow(/expected 2 argument/);
    // a token another dialog issued (a scenario's folder) opens no runs/<id>.mcap
    answers.push(path.join(dir, 'scenario', 's.json'));
    const opened = (await h.openFile('scenario'))!;
    await expect(h.readResultRecording(opened.token, 'r0000')).rejects.toThrow(/not a results directory opened in this session/);
    await expect(h.readResultRecording(r.token, 'r0009')).rejects.toThrow(/'runs\/r0009\.mcap' does not exist/);
    answers.push(path.join(dir, 'scenario'));
    await expect(h.openResults()).rejects.toThrow(/'scenario' has no results\.csv/);
  });

  it('refuses a recording reached through a symbolic link', async () => {
    const h = setup();
    writeFileSync(path.join(dir, 'secret.mcap'), 'secret');
    symlinkSync(path.join(dir, 'secret.mcap'), path.join(dir, 'out', 'runs', 'r0001.mcap'));
    answers.push(path.join(dir, 'out'));
    const r = (await h.openResults())!;
    await expect(h.readResultRecording(r.token, 'r0001')).rejects.toBeInstanceOf(HostFileError);
  });
});
