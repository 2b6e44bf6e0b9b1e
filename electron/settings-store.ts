/**
 * Settings persisted in <userData>/settings.json.
 *
 * A settings file is user-editable and can be truncated by a crash mid-write, so loading never
 * throws: unreadable JSON or a wrong shape falls back to defaults (with one warning), and a
 * partly valid file keeps its valid fields and drops bad recent-file entries one by one.
 * Writes go through `writeTextAtomic` (temp file + rename in the node adapter) so a crash leaves
 * either the old or the new file, never half of one.
 */

import type { FileKind, Settings } from './ipc-contract';
import { MAX_RECENT_FILES, SETTINGS_KEYS, expectRecentEntry } from './validate';

export interface SettingsIo {
  /** Text of the file, or null when it does not exist. May reject for other I/O errors. */
  readText(path: string): Promise<string | null>;
  writeTextAtomic(path: string, text: string): Promise<void>;
}

export type Warn = (message: string) => void;

export function defaultSettings(): Settings {
  return { recentFiles: [], showContacts: true };
}

/**
 * Turns whatever JSON.parse produced into valid Settings. Returns the settings plus the list of
 * problems found (empty for a clean file).
 */
export function sanitizeSettings(raw: unknown): { settings: Settings; problems: string[] } {
  const settings = defaultSettings();
  const problems: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push('top level is not an object');
    return { settings, problems };
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!(SETTINGS_KEYS as readonly string[]).includes(key)) problems.push(`unknown field '${key}' ignored`);
  }
  if ('showContacts' in obj) {
    if (typeof obj.showContacts === 'boolean') settings.showContacts = obj.showContacts;
    else problems.push('showContacts is not a boolean');
  }
  if ('recentFiles' in obj) {
    if (Array.isArray(obj.recentFiles)) {
      for (let i = 0; i < obj.recentFiles.length && settings.recentFiles.length < MAX_RECENT_FILES; i++) {
        try {
          settings.recentFiles.push(expectRecentEntry(`recentFiles[${i}]`, obj.recentFiles[i]));
        } catch (err) {
          problems.push((err as Error).message);
        }
      }
    } else {
      problems.push('recentFiles is not an array');
    }
  }
  return { settings, problems };
}

export class SettingsStore {
  private current: Settings = defaultSettings();
  private loaded = false;

  constructor(
    private readonly io: SettingsIo,
    private readonly filePath: string,
    private readonly warn: Warn,
  ) {}

  /** Loads the file once; later calls return the cached settings. Never rejects. */
  async load(): Promise<Settings> {
    if (this.loaded) return this.snapshot();
    this.loaded = true;
    let text: string | null = null;
    try {
      text = await this.io.readText(this.filePath);
    } catch (err) {
      this.warn(`settings: cannot read ${this.filePath} (${(err as Error).message}); using defaults`);
      return this.snapshot();
    }
    if (text === null) return this.snapshot();
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      this.warn(`settings: ${this.filePath} is not valid JSON (${(err as Error).message}); using defaults`);
      return this.snapshot();
    }
    const { settings, problems } = sanitizeSettings(raw);
    if (problems.length > 0) this.warn(`settings: ${this.filePath}: ${problems.join('; ')}`);
    this.current = settings;
    return this.snapshot();
  }

  /** A deep copy, so callers cannot mutate the store's state. */
  snapshot(): Settings {
    return { showContacts: this.current.showContacts, recentFiles: this.current.recentFiles.map((e) => ({ ...e })) };
  }

  /** Applies an already validated patch and persists it. A failed write is reported, not thrown. */
  async update(patch: Partial<Settings>): Promise<Settings> {
    await this.load();
    if (patch.showContacts !== undefined) this.current.showContacts = patch.showContacts;
    if (patch.recentFiles !== undefined) this.current.recentFiles = patch.recentFiles.map((e) => ({ ...e }));
    await this.persist();
    return this.snapshot();
  }

  /** Moves (or inserts) `path` to the front of the recent list, capped at MAX_RECENT_FILES. */
  async addRecent(kind: FileKind, name: string, path: string): Promise<Settings> {
    await this.load();
    const rest = this.current.recentFiles.filter((e) => e.path !== path);
    this.current.recentFiles = [{ kind, name, path }, ...rest].slice(0, MAX_RECENT_FILES);
    await this.persist();
    return this.snapshot();
  }

  private async persist(): Promise<void> {
    try {
      await this.io.writeTextAtomic(this.filePath, `${JSON.stringify(this.current, null, 2)}\n`);
    } catch (err) {
      this.warn(`settings: cannot write ${this.filePath} (${(err as Error).message}); changes kept for this session only`);
    }
  }
}
