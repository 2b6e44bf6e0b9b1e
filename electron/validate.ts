/**
 * Validation of every IPC payload that reaches the main process.
 *
 * The renderer is treated as untrusted: a compromised page (or a bug) can send anything through
 * `ipcRenderer.invoke`, so each handler re-checks type, shape, size and path syntax here before it
 * touches the disk. Failures throw `IpcValidationError` whose message names the field and the
 * problem ("saveFile.req.suggestedName: must not contain '/' or '\\'"), which Electron forwards to
 * the renderer's rejected promise.
 *
 * No electron or node imports: this file is unit-tested in plain Node.
 */

import { CAPTURE_KINDS, FILE_KINDS, LIMITS, MAX_MESH_PARTS_BYTES, MESH_PARTS_OPTION_LIMITS, RUN_ID_PATTERN, type MeshPartsRequest, type FileKind, type MenuCommand, type SaveKind, type SaveRequest, type Settings } from './ipc-contract';

/** Thrown for any payload that fails validation; `field` is the dotted path of the bad value. */
export class IpcValidationError extends Error {
  readonly field: string;
  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = 'IpcValidationError';
    this.field = field;
  }
}

/** Human-readable type of a value for error messages (distinguishes null, arrays and NaN). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  if (value instanceof Uint8Array) return 'Uint8Array';
  if (ArrayBuffer.isView(value)) return (value as object).constructor.name;
  return typeof value;
}

export function expectFileKind(field: string, value: unknown): FileKind {
  if (typeof value !== 'string') throw new IpcValidationError(field, `expected one of ${FILE_KINDS.join(', ')}, got ${describeType(value)}`);
  if (!(FILE_KINDS as readonly string[]).includes(value)) {
    throw new IpcValidationError(field, `unknown file kind ${JSON.stringify(value.slice(0, 40))} (expected one of ${FILE_KINDS.join(', ')})`);
  }
  return value as FileKind;
}

/**
 * Characters never allowed in a file name we read or write. Separators and NUL would escape the
 * directory or truncate the path in the OS; the rest are forbidden on Windows and would make a
 * name that works on Linux fail on another user's machine.
 */
const FORBIDDEN_NAME_CHARS = /[/\\\0<>:"|?*\u0001-\u001f]/;

/**
 * A plain file name: no directories, not '.' or '..', within LIMITS.maxNameLength UTF-16 units.
 * Used for readRelated (a file beside one the user opened) and for save-dialog suggestions.
 */
export function expectPlainFileName(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new IpcValidationError(field, `expected a file name string, got ${describeType(value)}`);
  if (value.length === 0) throw new IpcValidationError(field, 'must not be empty');
  if (value.length > LIMITS.maxNameLength) {
    throw new IpcValidationError(field, `name is ${value.length} characters, limit is ${LIMITS.maxNameLength}`);
  }
  if (value.includes('/') || value.includes('\\')) throw new IpcValidationError(field, "must be a plain file name (no '/' or '\\')");
  if (value === '.' || value === '..') throw new IpcValidationError(field, `'${value}' is not a file name`);
  if (FORBIDDEN_NAME_CHARS.test(value)) throw new IpcValidationError(field, 'contains a control or reserved character');
  return value;
}

/**
 * A path relative to the bundled assets/ folder, forward slashes only ('terrains/hills.png').
 * Every segment must be a plain file name, so '..', absolute paths, drive letters and empty
 * segments ('a//b') are all rejected before the path is joined to the assets root.
 */
export function expectAssetPath(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new IpcValidationError(field, `expected a relative path string, got ${describeType(value)}`);
  if (value.length === 0) throw new IpcValidationError(field, 'must not be empty');
  if (value.length > LIMITS.maxRelativePathLength) {
    throw new IpcValidationError(field, `path is ${value.length} characters, limit is ${LIMITS.maxRelativePathLength}`);
  }
  if (value.includes('\\')) throw new IpcValidationError(field, "must use '/' separators, not '\\'");
  if (value.startsWith('/')) throw new IpcValidationError(field, 'must be relative to assets/ (no leading /)');
  for (const segment of value.split('/')) {
    if (segment === '..') throw new IpcValidationError(field, "must not contain '..'");
    if (segment === '' || segment === '.') throw new IpcValidationError(field, "must not contain empty or '.' segments");
    if (FORBIDDEN_NAME_CHARS.test(segment)) throw new IpcValidationError(field, 'contains a control or reserved character');
  }
  return value;
}

export function expectBytes(field: string, value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new IpcValidationError(field, `expected a Uint8Array, got ${describeType(value)}`);
  if (value.byteLength > LIMITS.maxFileBytes) {
    throw new IpcValidationError(field, `${value.byteLength} bytes exceeds the limit of ${LIMITS.maxFileBytes} bytes`);
  }
  return value;
}

/** Longest token string main ever issues; anything longer cannot be one of ours. */
export const MAX_TOKEN_LENGTH = 128;

export function expectTokenString(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new IpcValidationError(field, `expected a token string, got ${describeType(value)}`);
  if (value.length === 0 || value.length > MAX_TOKEN_LENGTH) throw new IpcValidationError(field, 'is not a token issued by this app');
  return value;
}

/** A sweep run id (ipc-contract.ts RUN_ID_PATTERN): it names runs/<id>.mcap, so no separators or dots. */
export function expectRunId(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new IpcValidationError(field, `expected a run id string, got ${describeType(value)}`);
  if (!RUN_ID_PATTERN.test(value)) throw new IpcValidationError(field, 'must be 1 to 64 letters, digits, _ or - (a run id such as r0007)');
  return value;
}

/** A plain object (not null, not an array, not a class instance such as a typed array or Date). */
function expectPlainObject(field: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new IpcValidationError(field, `expected an object, got ${describeType(value)}`);
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new IpcValidationError(field, `expected a plain object, got ${describeType(value)}`);
  return value as Record<string, unknown>;
}

function rejectExtraKeys(field: string, obj: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) throw new IpcValidationError(`${field}.${key}`, `unexpected field (allowed: ${allowed.join(', ')})`);
  }
}

/** A save request's kind: a file kind, or a capture kind (screenshot, video). */
export function expectSaveKind(field: string, value: unknown): SaveKind {
  if (typeof value === 'string' && (CAPTURE_KINDS as readonly string[]).includes(value)) return value as SaveKind;
  if (typeof value === 'string' && !(FILE_KINDS as readonly string[]).includes(value)) {
    throw new IpcValidationError(field, `unknown file kind ${JSON.stringify(value.slice(0, 40))} (expected one of ${[...FILE_KINDS, ...CAPTURE_KINDS].join(', ')})`);
  }
  return expectFileKind(field, value);
}

export function expectSaveRequest(field: string, value: unknown): SaveRequest {
  const obj = expectPlainObject(field, value);
  rejectExtraKeys(field, obj, ['kind', 'suggestedName', 'bytes']);
  return {
    kind: expectSaveKind(`${field}.kind`, obj.kind),
    suggestedName: expectPlainFileName(`${field}.suggestedName`, obj.suggestedName),
    bytes: expectBytes(`${field}.bytes`, obj.bytes),
  };
}

/** A recent-file entry as it appears in Settings (also used to sanitize settings.json on load). */
export function expectRecentEntry(field: string, value: unknown): Settings['recentFiles'][number] {
  const obj = expectPlainObject(field, value);
  rejectExtraKeys(field, obj, ['kind', 'name', 'path']);
  const kind = expectFileKind(`${field}.kind`, obj.kind);
  const name = expectPlainFileName(`${field}.name`, obj.name);
  if (typeof obj.path !== 'string' || obj.path.length === 0) {
    throw new IpcValidationError(`${field}.path`, `expected a non-empty path string, got ${describeType(obj.path)}`);
  }
  if (obj.path.includes('\0')) throw new IpcValidationError(`${field}.path`, 'contains a NUL character');
  return { kind, name, path: obj.path };
}

/** The keys a settings patch may contain: exactly the keys of Settings. */
export const SETTINGS_KEYS: readonly (keyof Settings)[] = ['recentFiles', 'showContacts'];

/**
 * Shape check of a `setSettings` patch. Whether the recent-file paths are acceptable (only paths
 * the user already chose) is decided by the handler, which knows the current list.
 */
export function expectSettingsPatch(field: string, value: unknown): Partial<Settings> {
  const obj = expectPlainObject(field, value);
  rejectExtraKeys(field, obj, SETTINGS_KEYS);
  const patch: Partial<Settings> = {};
  if ('showContacts' in obj) {
    if (typeof obj.showContacts !== 'boolean') {
      throw new IpcValidationError(`${field}.showContacts`, `expected a boolean, got ${describeType(obj.showContacts)}`);
    }
    patch.showContacts = obj.showContacts;
  }
  if ('recentFiles' in obj) {
    if (!Array.isArray(obj.recentFiles)) {
      throw new IpcValidationError(`${field}.recentFiles`, `expected an array, got ${describeType(obj.recentFiles)}`);
    }
    if (obj.recentFiles.length > MAX_RECENT_FILES) {
      throw new IpcValidationError(`${field}.recentFiles`, `${obj.recentFiles.length} entries exceeds the limit of ${MAX_RECENT_FILES}`);
    }
    patch.recentFiles = obj.recentFiles.map((entry, i) => expectRecentEntry(`${field}.recentFiles[${i}]`, entry));
  }
  return patch;
}

/** Length of File ▸ Open Recent. */
export const MAX_RECENT_FILES = 10;

/** Integer index into a list of `length` items (Open Recent). */
export function expectIndex(field: string, value: unknown, length: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new IpcValidationError(field, `expected an integer index, got ${describeType(value)}${typeof value === 'number' ? ` ${value}` : ''}`);
  }
  if (value < 0 || value >= length) throw new IpcValidationError(field, `index ${value} is out of range (0..${length - 1})`);
  return value;
}

/** Used by the preload's menu listener: drops anything main would never send. */
export function isMenuCommand(value: unknown): value is MenuCommand {
  if (typeof value !== 'object' || value === null) return false;
  const cmd = value as { type?: unknown; kind?: unknown; index?: unknown };
  switch (cmd.type) {
    case 'open':
      return typeof cmd.kind === 'string' && (FILE_KINDS as readonly string[]).includes(cmd.kind);
    case 'open-recent':
      return typeof cmd.index === 'number' && Number.isInteger(cmd.index) && cmd.index >= 0;
    case 'live-link':
    case 'save-recording-as':
      return true;
    default:
      return false;
  }
}

const MESH_EXTENSIONS = /\.(stl|obj|dae)$/i;

/**
 * A mesh decomposition request (IPC_MESH_PARTS): a mesh path naming its format (only read for its
 * extension: main never opens it), at most MAX_MESH_PARTS_BYTES of bytes, three finite positive
 * scale factors, V-HACD options within MESH_PARTS_OPTION_LIMITS (integers but the error bound).
 */
export function expectMeshPartsRequest(field: string, value: unknown): MeshPartsRequest {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new IpcValidationError(field, `expected { file, bytes, scale, options }, got ${describeType(value)}`);
  const v = value as Record<string, unknown>;
  if (typeof v.file !== 'string' || v.file.length === 0 || v.file.length > LIMITS.maxRelativePathLength || v.file.includes('\0')) {
    throw new IpcValidationError(`${field}.file`, `expected a mesh path of 1 to ${LIMITS.maxRelativePathLength} characters, got ${describeType(v.file)}`);
  }
  if (!MESH_EXTENSIONS.test(v.file)) throw new IpcValidationError(`${field}.file`, 'must end in .stl, .obj or .dae (the mesh format)');
  if (!(v.bytes instanceof Uint8Array)) throw new IpcValidationError(`${field}.bytes`, `expected Uint8Array, got ${describeType(v.bytes)}`);
  if (v.bytes.byteLength === 0 || v.bytes.byteLength > MAX_MESH_PARTS_BYTES) throw new IpcValidationError(`${field}.bytes`, `is ${v.bytes.byteLength} bytes; expected 1 to ${MAX_MESH_PARTS_BYTES}`);
  const scale = v.scale;
  if (!Array.isArray(scale) || scale.length !== 3 || !scale.every((x) => typeof x === 'number' && Number.isFinite(x) && x > 0)) {
    throw new IpcValidationError(`${field}.scale`, 'expected three finite positive numbers');
  }
  const o = v.options;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new IpcValidationError(`${field}.options`, `expected the V-HACD options, got ${describeType(o)}`);
  const opts = {} as MeshPartsRequest['options'];
  for (const [name, [lo, hi]] of Object.entries(MESH_PARTS_OPTION_LIMITS) as [keyof MeshPartsRequest['options'], readonly [number, number]][]) {
    const x = (o as Record<string, unknown>)[name];
    const integer = name !== 'minVolumePercentError';
    if (typeof x !== 'number' || !Number.isFinite(x) || x < lo || x > hi || (integer && !Number.isInteger(x))) {
      throw new IpcValidationError(`${field}.options.${name}`, `expected ${integer ? 'an integer' : 'a number'} in [${lo}, ${hi}], got ${typeof x === 'number' ? x : describeType(x)}`);
    }
    opts[name] = x;
  }
  return { file: v.file, bytes: v.bytes, scale: [scale[0], scale[1], scale[2]], options: opts };
}
