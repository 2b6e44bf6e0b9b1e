/**
 * Main-process IPC handlers as plain functions.
 *
 * Everything with side effects (dialogs, disk, settings file, token generation) is injected
 * through `HandlerDeps`, so the unit tests drive these handlers in Node with fakes and a temp
 * directory, without Electron. main.ts wires the real dialog and fs into them and registers
 * `dispatch` for each channel with ipcMain.handle.
 *
 * Trust model: arguments arrive from the renderer and are validated here (electron/validate.ts)
 * before use. The only absolute paths ever touched come from (a) the user's own open/save dialog
 * choices, (b) the files those choices name, in their directories (related-files.ts: a sidecar's
 * image, a scenario's sidecar; never any other file there, never a dotfile), (c) recent-file
 * entries that were themselves dialog choices, and (d) the app's own bundled assets root.
 * Symbolic links are refused for (b) and (d): a downloaded folder could carry a link named
 * hills.png that points at ~/.ssh/id_ed25519 (checked with lstat on every path component below the
 * root; a local attacker racing the check is outside this model). Hard links are refused for (b):
 * a file with more than one name (nlink > 1) is the same file as one elsewhere on the volume, and
 * an unpacked archive can create them. Files whose other names are harmless (a deduplicating
 * backup tool, a package store) are refused too: the message says to copy the file.
 *
 * A robot's meshes (Open Robot…) are sized with lstat before any is read: at most MESH_MAX_BYTES
 * each (the sim's mesh readers refuse more anyway) and ROBOT_MAX_RELATED_BYTES together, so a
 * 300-byte URDF naming sparse 1 GiB files is refused instead of taking main to gigabytes.
 */

import * as nodePath from 'node:path';
import { classifyAsset } from './asset-kind';
import { referencedFileNames, RELATED_MAX_PARSE_BYTES } from './related-files';
import { findPackageDir, openXacroRobot, readPackageControllerFiles, type XacroRobotAccess } from './robot-xacro';
import { isXacro } from '../sim/robot/urdf/xacro-detect';
import { ROBOT_MAX_RELATED_BYTES, robotRelatedPaths } from './robot-files';
import { MESH_MAX_BYTES } from '../sim/robot/urdf/urdf-error';
import { meshFormat } from '../sim/robot/mesh/obj';
import { decomposeMeshFile, type ConvexPartsCache } from '../sim/robot/mesh/convex-parts';
import {
  IPC,
  IPC_OPEN_RECENT,
  IPC_RECORDING,
  IPC_RESULTS,
  IPC_MESH_PARTS,
  LIMITS,
  type MeshParts,
  MAX_RESULTS_CSV_BYTES,
  RUN_ID_PATTERN,
  type OpenedResults,
  MAX_OPEN_RECORDING_BYTES,
  MAX_RECORDING_APPEND_BYTES,
  type RecordingBegun,
  type RecordingEnded,
  type AssetEntry,
  type FileKind,
  type SaveKind,
  type OpenedFile,
  type OpenedRobotFile,
  type SaveResult,
  type Settings,
} from './ipc-contract';
import { describeValue } from '../sim/util/describe-value';
import type { SettingsStore } from './settings-store';
import type { TokenRegistry } from './token-registry';
import {
  IpcValidationError,
  expectAssetPath,
  expectFileKind,
  expectIndex,
  expectMeshPartsRequest,
  expectPlainFileName,
  expectRunId,
  expectSaveRequest,
  expectSettingsPatch,
  expectTokenString,
} from './validate';

export interface FileStat {
  size: number;
  isFile: boolean;
  /** Only from lstat: the path itself is a symbolic link. */
  isSymbolicLink?: boolean;
  /** Number of names (hard links) the file has; absent when the host cannot tell. */
  nlink?: number;
}

/** The disk operations the handlers need (node-files.ts implements them with node:fs). */
export interface HostFiles {
  stat(path: string): Promise<FileStat>;
  /** Like stat, but does not follow a final symbolic link (sets isSymbolicLink). */
  lstat(path: string): Promise<FileStat>;
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, bytes: Uint8Array): Promise<void>;
  /** Every regular file under `root`, paths relative to root with '/' separators. */
  listFiles(root: string): Promise<{ path: string; size: number }[]>;
  /** Creates (truncates) `path` for a recording written piece by piece; absent: recordings cannot be streamed. */
  openWriter?(path: string): Promise<FileWriter>;
}

/** A file being written in order (a recording). */
export interface FileWriter {
  /** Appends the bytes (all of them) and flushes them to disk. */
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Native dialogs. Return the absolute path the user chose, or null when they cancelled. */
export interface HostDialogs {
  showOpen(kind: FileKind): Promise<string | null>;
  showSave(kind: SaveKind, suggestedName: string): Promise<string | null>;
  /** A directory dialog (a sweep's output directory); absent: results cannot be opened. */
  showOpenDirectory?(): Promise<string | null>;
}

export interface HandlerDeps {
  files: HostFiles;
  dialogs: HostDialogs;
  settings: SettingsStore;
  tokens: TokenRegistry;
  /** Absolute path of the bundled assets/ folder. */
  assetsRoot: string;
  /** Path flavour of the host OS (node:path in main; posix or win32 in tests). */
  path?: nodePath.PlatformPath;
  /** Called after the recent-file list changes (main rebuilds the menu). */
  onRecentChanged?: (settings: Settings) => void;
  /**
   * Where meshConvexParts keeps decompositions (main: the CLI's disk cache, sim/node/
   * convex-parts-cache.ts, in the app's user-data folder); null or absent: no cache.
   */
  convexPartsCache?: ConvexPartsCache | null;
}

/** A failure the user should read as-is (missing file, too large, not a file); not a validation bug. */
export class HostFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostFileError';
  }
}

/** A path was refused because a component is a symbolic link, or the file is a hard link. */
export class SymlinkRefusedError extends HostFileError {}

/** A related file (a robot's mesh) was refused for its size before it was read. */
export class FileTooLargeError extends HostFileError {}

export interface Handlers {
  openFile(kind: unknown): Promise<OpenedFile | null>;
  openRecent(index: unknown): Promise<OpenedFile>;
  readRelated(token: unknown, relativeName: unknown): Promise<Uint8Array>;
  saveFile(req: unknown): Promise<SaveResult | null>;
  listAssets(): Promise<AssetEntry[]>;
  readAsset(path: unknown): Promise<Uint8Array>;
  getSettings(): Promise<Settings>;
  setSettings(patch: unknown): Promise<Settings>;
  /** Save dialog for a new recording, the file created; null if cancelled. */
  recordingBegin(suggestedName: unknown): Promise<RecordingBegun | null>;
  /** Appends a chunk (≤ MAX_RECORDING_APPEND_BYTES) to recording `id`. */
  recordingAppend(id: unknown, bytes: unknown): Promise<void>;
  /** Closes recording `id` and adds it to the recent files. */
  recordingEnd(id: unknown): Promise<RecordingEnded>;
  /** Directory dialog for a sweep's output; results.csv and the ids of runs/<id>.mcap; null if cancelled. */
  openResults(): Promise<OpenedResults | null>;
  /** runs/<id>.mcap of a directory opened with openResults (its token only). */
  readResultRecording(token: unknown, id: unknown): Promise<OpenedFile>;
  /**
   * The convex parts of a concave collision mesh (V-HACD, which the worker's CSP forbids), by the
   * same code and cache key as Node's CLI: the same bytes and options give the same parts.
   */
  meshConvexParts(req: unknown): Promise<MeshParts>;
  /** Channel → handler with an arity check; what main registers with ipcMain.handle. */
  dispatch(channel: string, args: readonly unknown[]): Promise<unknown>;
}

export function createHandlers(deps: HandlerDeps): Handlers {
  const path = deps.path ?? nodePath;

  /** Reads a regular file after checking its size, so a 10 GB file fails fast with a message. */
  async function readUserFile(filePath: string, displayName: string): Promise<Uint8Array> {
    let st: FileStat;
    try {
      st = await deps.files.stat(filePath);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ENOENT') throw new HostFileError(`'${displayName}' does not exist`);
      throw new HostFileError(`cannot read '${displayName}': ${(err as Error).message}`);
    }
    if (!st.isFile) throw new HostFileError(`'${displayName}' is not a regular file`);
    if (st.size > LIMITS.maxFileBytes) {
      throw new HostFileError(`'${displayName}' is ${st.size} bytes; the limit is ${LIMITS.maxFileBytes} bytes`);
    }
    return deps.files.readFile(filePath);
  }

  /**
   * Checks root/segments… without reading it: no symbolic link at any component below `root` (the
   * root itself is the user's dialog choice or the app bundle, trusted as it is), a regular file,
   * and with `refuseHardLinks` one name only. Returns the path and the file's lstat.
   */
  async function checkContained(
    root: string,
    segments: readonly string[],
    displayName: string,
    refuseHardLinks: boolean,
  ): Promise<{ path: string; stat: FileStat }> {
    let p = root;
    let st: FileStat | undefined;
    for (const seg of segments) {
      p = path.join(p, seg);
      try {
        st = await deps.files.lstat(p);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'ENOENT') throw new HostFileError(`'${displayName}' does not exist`);
        throw new HostFileError(`cannot read '${displayName}': ${(err as Error).message}`);
      }
      if (st.isSymbolicLink === true) throw new SymlinkRefusedError(`'${displayName}' is reached through a symbolic link; links are not followed`);
    }
    if (st === undefined) throw new HostFileError(`'${displayName}' names no file`);
    if (!st.isFile) throw new HostFileError(`'${displayName}' is not a regular file`);
    // Directories always have several names ('.' and the entry): only the file itself is checked.
    if (refuseHardLinks && st.nlink !== undefined && st.nlink > 1) {
      throw new SymlinkRefusedError(`'${displayName}' has ${st.nlink} names (a hard link); linked files are not read from the opened file's folder (copy the file instead)`);
    }
    return { path: p, stat: st };
  }

  /** Reads root/segments… after checkContained (user folders refuse hard links; the app bundle does not). */
  async function readContained(root: string, segments: readonly string[], displayName: string, refuseHardLinks: boolean): Promise<Uint8Array> {
    return readUserFile((await checkContained(root, segments, displayName, refuseHardLinks)).path, displayName);
  }

  /** Recordings being written: id → file, its path and size so far. Ids are never reused. */
  /** `writing`: the append in progress (recordingEnd waits for it: the size it reports and the close come after it). */
  const recordings = new Map<string, { writer: FileWriter; path: string; name: string; bytes: number; busy: boolean; writing: Promise<void> }>();
  let nextRecording = 1;

  function expectRecordingId(field: string, value: unknown) {
    if (typeof value !== 'string' || !/^rec-[0-9]{1,9}$/.test(value)) throw new IpcValidationError(field, `expected a recording id ('rec-<n>'), got ${describeValue(value, 40)}`);
    const r = recordings.get(value);
    if (r === undefined) throw new IpcValidationError(field, `${value} is not a recording in progress (begin one first)`);
    return r;
  }

  async function openChosenPath(kind: FileKind, filePath: string): Promise<OpenedFile & OpenedRobotFile> {
    const name = path.basename(filePath);
    if (kind === 'recording') {
      // The renderer holds an opened recording in memory whole: a smaller cap than other files.
      const st = await deps.files.stat(filePath).catch(() => null);
      if (st !== null && st.size > MAX_OPEN_RECORDING_BYTES) {
        throw new HostFileError(`'${name}' is ${st.size} bytes; recordings up to ${MAX_OPEN_RECORDING_BYTES} bytes (1 GiB) can be opened in the app (use the CLI for larger ones)`);
      }
    }
    const bytes = await readUserFile(filePath, name);
    const token = deps.tokens.issue(path.dirname(filePath), referencedFileNames(name, bytes));
    // A xacro robot comes with its includes and meshes, named by their path in its workspace (robot-xacro.ts).
    const xacro = kind === 'robot' && bytes.length <= RELATED_MAX_PARSE_BYTES && isXacro(new TextDecoder().decode(bytes))
      ? await openXacroRobot(filePath, bytes, xacroAccess, path)
      : undefined;
    // A robot comes with the meshes its URDF names (sub-folders too): read here, since readRelated serves plain names only.
    const related = xacro ? xacro.related : kind === 'robot' ? { ...(await readPlainRobotControllers(filePath)), ...(await readRobotRelated(path.dirname(filePath), name, bytes)) } : undefined;
    const settings = await deps.settings.addRecent(kind, name, filePath);
    deps.onRecentChanged?.(settings);
    return related ? { kind, name: xacro?.name ?? name, bytes, token, related } : { kind, name, bytes, token };
  }

  /** The checked file access robot-xacro.ts reads through (a missing file is null; links and hard links refused). */
  const xacroAccess: XacroRobotAccess = {
    async check(root, segments, display) {
      try {
        const c = await checkContained(root, segments, display, true);
        return { path: c.path, size: c.stat.size };
      } catch (err) {
        if (err instanceof SymlinkRefusedError || !(err instanceof HostFileError)) throw err;
        return null;
      }
    },
    read: (p, display) => readUserFile(p, display),
    tooLarge: (message) => new FileTooLargeError(message),
    async list(root, segments) {
      // no symbolic link on the way to the folder (HostFiles.listFiles follows none below it)
      let p = root;
      for (const seg of segments) {
        p = path.join(p, seg);
        const st = await deps.files.lstat(p).catch(() => null);
        if (st === null || st.isSymbolicLink === true) return [];
      }
      return deps.files.listFiles(p);
    },
  };

  /**
   * A plain URDF's package controller files (robot-xacro.ts readPackageControllerFiles): keyed
   * "<package folder>/config/…" beside the meshes, which are keyed relative to the URDF's folder.
   */
  async function readPlainRobotControllers(filePath: string): Promise<Record<string, Uint8Array>> {
    const packageDir = await findPackageDir(filePath, xacroAccess, path);
    if (packageDir === null) return {};
    let total = 0;
    return readPackageControllerFiles(packageDir, xacroAccess, path, (size, what) => {
      total += size;
      if (total > ROBOT_MAX_RELATED_BYTES) throw new FileTooLargeError(`the controller files of '${path.basename(filePath)}' total at least ${total} bytes (${what}); at most ${ROBOT_MAX_RELATED_BYTES} bytes are read for one robot`);
    });
  }

  /**
   * The files a URDF references inside its folder (robot-files.ts). A missing one is left out (the
   * loader names a missing collision mesh and its link; a missing visual is drawn without); a
   * symbolic or hard link, a file over MESH_MAX_BYTES or files over ROBOT_MAX_RELATED_BYTES
   * together fail the open, all checked with lstat before the first byte is read.
   */
  async function readRobotRelated(dir: string, name: string, bytes: Uint8Array): Promise<Record<string, Uint8Array>> {
    const found: { rel: string; path: string }[] = [];
    let total = 0;
    for (const rel of robotRelatedPaths(name, bytes)) {
      let checked: { path: string; stat: FileStat };
      try {
        checked = await checkContained(dir, rel.split('/'), rel, true);
      } catch (err) {
        if (err instanceof SymlinkRefusedError || !(err instanceof HostFileError)) throw err;
        continue;
      }
      const size = checked.stat.size;
      if (size > MESH_MAX_BYTES) {
        throw new FileTooLargeError(`'${rel}' is ${size} bytes; a robot mesh may be at most ${MESH_MAX_BYTES} bytes (simplify the mesh)`);
      }
      total += size;
      if (total > ROBOT_MAX_RELATED_BYTES) {
        throw new FileTooLargeError(
          `the files '${name}' names total at least ${total} bytes; at most ${ROBOT_MAX_RELATED_BYTES} bytes of meshes are read for one robot (simplify the meshes)`,
        );
      }
      found.push({ rel, path: checked.path });
    }
    const related: Record<string, Uint8Array> = {};
    for (const f of found) related[f.rel] = await readUserFile(f.path, f.rel);
    return related;
  }

  const handlers: Omit<Handlers, 'dispatch' | 'openResults' | 'readResultRecording' | 'meshConvexParts'> = {
    async openFile(kindArg) {
      const kind = expectFileKind('openFile.kind', kindArg);
      const chosen = await deps.dialogs.showOpen(kind);
      if (chosen === null) return null;
      return openChosenPath(kind, chosen);
    },

    async openRecent(indexArg) {
      const before = await deps.settings.load();
      const index = expectIndex('openRecent.index', indexArg, before.recentFiles.length);
      const entry = before.recentFiles[index];
      try {
        return await openChosenPath(entry.kind, entry.path);
      } catch (err) {
        if (err instanceof HostFileError) {
          // A recent entry whose file vanished is dead weight in the menu: drop it, then report.
          const after = await deps.settings.update({ recentFiles: before.recentFiles.filter((e) => e.path !== entry.path) });
          deps.onRecentChanged?.(after);
        }
        throw err;
      }
    },

    async readRelated(tokenArg, nameArg) {
      const token = expectTokenString('readRelated.token', tokenArg);
      const name = expectPlainFileName('readRelated.relativeName', nameArg);
      const dir = deps.tokens.resolve(token);
      if (dir === undefined) throw new IpcValidationError('readRelated.token', 'is not a token issued by this app (open the file again)');
      if (name.startsWith('.')) throw new IpcValidationError('readRelated.relativeName', `'${name}' is a dotfile; hidden files are never read`);
      if (!deps.tokens.allows(token, name)) {
        const allowed = deps.tokens.allowedNames(token);
        throw new IpcValidationError(
          'readRelated.relativeName',
          `'${name}' is not a file the opened file names (it may read only ${allowed.length === 0 ? 'nothing' : allowed.map((n) => `'${n}'`).join(', ')})`,
        );
      }
      const checked = await checkContained(dir, [name], name, true);
      if (meshFormat(name) !== 'unknown' && checked.stat.size > MESH_MAX_BYTES) {
        throw new FileTooLargeError(`'${name}' is ${checked.stat.size} bytes; a robot mesh may be at most ${MESH_MAX_BYTES} bytes (simplify the mesh)`);
      }
      const bytes = await readUserFile(checked.path, name);
      // scenario → sidecar → image: what this file names becomes readable too.
      deps.tokens.allow(token, referencedFileNames(name, bytes));
      return bytes;
    },

    async saveFile(reqArg) {
      const req = expectSaveRequest('saveFile.req', reqArg);
      const chosen = await deps.dialogs.showSave(req.kind, req.suggestedName);
      if (chosen === null) return null;
      await deps.files.writeFile(chosen, req.bytes);
      const name = path.basename(chosen);
      if (req.kind === 'recording') {
        const settings = await deps.settings.addRecent(req.kind, name, chosen);
        deps.onRecentChanged?.(settings);
      }
      return { name };
    },

    async recordingBegin(nameArg) {
      const suggested = expectPlainFileName('recordingBegin.suggestedName', nameArg);
      if (deps.files.openWriter === undefined) throw new HostFileError('this build cannot stream recordings to disk');
      const chosen = await deps.dialogs.showSave('recording', suggested);
      if (chosen === null) return null;
      let writer: FileWriter;
      try {
        writer = await deps.files.openWriter(chosen);
      } catch (err) {
        throw new HostFileError(`cannot create '${path.basename(chosen)}': ${(err as Error).message}`);
      }
      const id = `rec-${nextRecording++}`;
      const name = path.basename(chosen);
      recordings.set(id, { writer, path: chosen, name, bytes: 0, busy: false, writing: Promise.resolve() });
      return { id, name };
    },

    async recordingAppend(idArg, bytesArg) {
      const r = expectRecordingId('recordingAppend.id', idArg);
      if (!(bytesArg instanceof Uint8Array)) throw new IpcValidationError('recordingAppend.bytes', `expected a Uint8Array, got ${describeValue(bytesArg, 40)}`);
      if (bytesArg.byteLength > MAX_RECORDING_APPEND_BYTES) {
        throw new IpcValidationError('recordingAppend.bytes', `${bytesArg.byteLength} bytes exceeds the limit of ${MAX_RECORDING_APPEND_BYTES} per call`);
      }
      if (r.bytes + bytesArg.byteLength > LIMITS.maxFileBytes) throw new HostFileError(`'${r.name}' would exceed ${LIMITS.maxFileBytes} bytes`);
      // Chunks must land in order: the renderer awaits each append before the next.
      if (r.busy) throw new IpcValidationError('recordingAppend.id', `${idArg as string} is still writing the previous chunk (await each append)`);
      r.busy = true;
      const write = (async () => {
        try {
          await r.writer.write(bytesArg);
          r.bytes += bytesArg.byteLength;
        } finally {
          r.busy = false;
        }
      })();
      // recordingEnd waits for it whether it succeeds or fails; the caller gets the failure
      r.writing = write.catch(() => undefined);
      await write;
    },

    async recordingEnd(idArg) {
      const r = expectRecordingId('recordingEnd.id', idArg);
      recordings.delete(idArg as string);
      // an append still writing lands first: the file is closed after it, its size counted
      await r.writing;
      await r.writer.close();
      const settings = await deps.settings.addRecent('recording', r.name, r.path);
      deps.onRecentChanged?.(settings);
      return { name: r.name, bytes: r.bytes };
    },

    async listAssets() {
      const files = await deps.files.listFiles(deps.assetsRoot);
      return files
        .map((f) => ({ path: f.path, kind: classifyAsset(f.path), size: f.size }))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },

    async readAsset(pathArg) {
      const rel = expectAssetPath('readAsset.path', pathArg);
      return readContained(deps.assetsRoot, rel.split('/'), rel, false);
    },

    async getSettings() {
      return deps.settings.load();
    },

    async setSettings(patchArg) {
      const patch = expectSettingsPatch('setSettings.patch', patchArg);
      if (patch.recentFiles !== undefined) {
        // The renderer may remove or reorder recent entries, never add a path: a path that did not
        // come from the user's own dialog would let a compromised page read any file via openRecent.
        const known = (await deps.settings.load()).recentFiles;
        patch.recentFiles.forEach((entry, i) => {
          const match = known.find((k) => k.path === entry.path);
          if (match === undefined || match.kind !== entry.kind || match.name !== entry.name) {
            throw new IpcValidationError(
              `setSettings.patch.recentFiles[${i}]`,
              'is not an existing recent file (entries can only be removed or reordered)',
            );
          }
        });
      }
      const settings = await deps.settings.update(patch);
      if (patch.recentFiles !== undefined) deps.onRecentChanged?.(settings);
      return settings;
    },
  };

  /**
   * Tokens issued by openResults (only these open runs/<id>.mcap: a token of another dialog, say
   * a scenario's folder, does not).
   */
  const resultTokens = new Set<string>();
  const results: Pick<Handlers, 'openResults' | 'readResultRecording'> = {
    async openResults(): Promise<OpenedResults | null> {
      if (!deps.dialogs.showOpenDirectory) throw new HostFileError('opening a results directory is not available in this build');
      const dir = await deps.dialogs.showOpenDirectory();
      if (dir === null) return null;
      const name = path.basename(dir);
      const { path: csvPath, stat } = await checkContained(dir, ['results.csv'], `${name}/results.csv`, true).catch((e: unknown) => {
        throw e instanceof HostFileError && /does not exist/.test(e.message) ? new HostFileError(`'${name}' has no results.csv: choose the --out directory of a terrawheel sweep`) : e;
      });
      if (stat.size > MAX_RESULTS_CSV_BYTES) throw new HostFileError(`'${name}/results.csv' is ${stat.size} bytes; the limit is ${MAX_RESULTS_CSV_BYTES} bytes`);
      const csv = new TextDecoder().decode(await deps.files.readFile(csvPath));
      let recordings: string[] = [];
      try {
        recordings = (await deps.files.listFiles(path.join(dir, 'runs')))
          .map((f) => /^(.+)\.mcap$/.exec(f.path)?.[1] ?? '')
          .filter((id) => RUN_ID_PATTERN.test(id))
          .sort();
      } catch {
        // no runs/ folder: a sweep without recordings
      }
      const token = deps.tokens.issue(dir);
      resultTokens.add(token);
      return { name, csv, token, recordings };
    },
    async readResultRecording(token: unknown, id: unknown): Promise<OpenedFile> {
      const t = expectTokenString('readResultRecording.token', token);
      const runId = expectRunId('readResultRecording.id', id);
      const dir = resultTokens.has(t) ? deps.tokens.resolve(t) : undefined;
      if (dir === undefined) throw new IpcValidationError('readResultRecording.token', 'is not a results directory opened in this session');
      const fileName = `${runId}.mcap`;
      const { path: p, stat } = await checkContained(dir, ['runs', fileName], `runs/${fileName}`, true);
      if (stat.size > MAX_OPEN_RECORDING_BYTES) throw new HostFileError(`'runs/${fileName}' is ${stat.size} bytes; the limit is ${MAX_OPEN_RECORDING_BYTES} bytes`);
      return { kind: 'recording', name: fileName, bytes: await deps.files.readFile(p), token: t };
    },
  };

  async function meshConvexParts(req: unknown): Promise<MeshParts> {
    const r = expectMeshPartsRequest('meshConvexParts.req', req);
    // A mesh that cannot be read, or V-HACD finding no part, rejects with the sim's message.
    return (await decomposeMeshFile(r, deps.convexPartsCache ?? null)) as MeshParts;
  }

  /** Expected argument count per channel: a call with extra or missing arguments is rejected. */
  const table: Record<string, { arity: number; call: (args: readonly unknown[]) => Promise<unknown> }> = {
    [IPC.openFile]: { arity: 1, call: (a) => handlers.openFile(a[0]) },
    [IPC_OPEN_RECENT]: { arity: 1, call: (a) => handlers.openRecent(a[0]) },
    [IPC.readRelated]: { arity: 2, call: (a) => handlers.readRelated(a[0], a[1]) },
    [IPC.saveFile]: { arity: 1, call: (a) => handlers.saveFile(a[0]) },
    [IPC.listAssets]: { arity: 0, call: () => handlers.listAssets() },
    [IPC.readAsset]: { arity: 1, call: (a) => handlers.readAsset(a[0]) },
    [IPC.getSettings]: { arity: 0, call: () => handlers.getSettings() },
    [IPC.setSettings]: { arity: 1, call: (a) => handlers.setSettings(a[0]) },
    [IPC_RECORDING.begin]: { arity: 1, call: (a) => handlers.recordingBegin(a[0]) },
    [IPC_RECORDING.append]: { arity: 2, call: (a) => handlers.recordingAppend(a[0], a[1]) },
    [IPC_RECORDING.end]: { arity: 1, call: (a) => handlers.recordingEnd(a[0]) },
    [IPC_RESULTS.open]: { arity: 0, call: () => results.openResults() },
    [IPC_RESULTS.readRecording]: { arity: 2, call: (a) => results.readResultRecording(a[0], a[1]) },
    [IPC_MESH_PARTS]: { arity: 1, call: (a) => meshConvexParts(a[0]) },
  };

  return {
    ...handlers,
    ...results,
    meshConvexParts,
    async dispatch(channel, args) {
      const entry = Object.prototype.hasOwnProperty.call(table, channel) ? table[channel] : undefined;
      if (entry === undefined) throw new IpcValidationError('channel', `unknown IPC channel ${describeValue(channel, 60)}`);
      if (args.length !== entry.arity) {
        throw new IpcValidationError(channel, `expected ${entry.arity} argument(s), got ${args.length}`);
      }
      return entry.call(args);
    },
  };
}

/** The channels main registers (every request/response channel of the contract). */
export const HANDLED_CHANNELS: readonly string[] = [
  IPC.openFile,
  IPC_OPEN_RECENT,
  IPC.readRelated,
  IPC.saveFile,
  IPC.listAssets,
  IPC.readAsset,
  IPC.getSettings,
  IPC.setSettings,
  IPC_RECORDING.begin,
  IPC_RECORDING.append,
  IPC_RECORDING.end,
  IPC_RESULTS.open,
  IPC_RESULTS.readRecording,
  IPC_MESH_PARTS,
];
