/**
 * Directory tokens: the only way the renderer can name a directory on disk.
 *
 * When the user picks a file in an open dialog, main remembers the file's directory under a fresh
 * random token, with the names of the files the chosen file references (related-files.ts: a
 * sidecar's "image", a scenario's "terrain", a URDF's meshes), and hands the renderer only the
 * token. `readRelated(token, name)` then reads `name` inside that directory only if it is one of
 * those names (a terrain's PNG beside its JSON sidecar; never "any file beside the chosen one").
 * The renderer never sees or sends an absolute path, so it can only reach files the user's
 * chosen files name, in the directories the user chose.
 *
 * Capacity is bounded (oldest token evicted first) so a renderer opening files in a loop cannot
 * grow main's memory without limit.
 */

/** Most directory tokens alive at once; far more than a session opens by hand. */
export const MAX_DIRECTORY_TOKENS = 256;

/** Most file names one token may allow (a URDF with hundreds of meshes is fine; more is not a robot). */
export const MAX_NAMES_PER_TOKEN = 4096;

interface TokenEntry {
  directory: string;
  /** Plain file names inside `directory` that readRelated may read. */
  allowed: Set<string>;
}

export class TokenRegistry {
  private readonly dirs = new Map<string, TokenEntry>();

  /** `newToken` must return unguessable strings (crypto.randomUUID in main, a counter in tests). */
  constructor(private readonly newToken: () => string) {}

  /** A token for `directory`, allowing readRelated of `allowedNames` (plain names) in it. */
  issue(directory: string, allowedNames: Iterable<string> = []): string {
    let token = this.newToken();
    // A collision would hand out someone else's directory; regenerate (practically never loops).
    while (this.dirs.has(token)) token = this.newToken();
    const entry: TokenEntry = { directory, allowed: new Set() };
    this.dirs.set(token, entry);
    this.allow(token, allowedNames);
    while (this.dirs.size > MAX_DIRECTORY_TOKENS) {
      const oldest = this.dirs.keys().next().value;
      if (oldest === undefined) break;
      this.dirs.delete(oldest);
    }
    return token;
  }

  /** The directory behind `token`, or undefined when main never issued it (or evicted it). */
  resolve(token: string): string | undefined {
    return this.dirs.get(token)?.directory;
  }

  /** True when readRelated(token, name) may read `name`. */
  allows(token: string, name: string): boolean {
    return this.dirs.get(token)?.allowed.has(name) ?? false;
  }

  /** The allowed names of a token, for messages. */
  allowedNames(token: string): string[] {
    return [...(this.dirs.get(token)?.allowed ?? [])];
  }

  /** Add names a file read through this token references (a scenario's sidecar names its image). */
  allow(token: string, names: Iterable<string>): void {
    const entry = this.dirs.get(token);
    if (entry === undefined) return;
    for (const n of names) {
      if (entry.allowed.size >= MAX_NAMES_PER_TOKEN) break;
      entry.allowed.add(n);
    }
  }

  get size(): number {
    return this.dirs.size;
  }
}
