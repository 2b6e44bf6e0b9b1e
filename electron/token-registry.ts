/**
 * Directory tokens: the only way the renderer can name a directory on disk.
 *
 * When the user picks a file in an open dialog, main remembers the file's directory under a fresh
 * random token and hands the renderer only the token. `readRelated(token, name)` then reads a
 * plain file name inside that directory (a terrain's PNG beside its JSON sidecar). The renderer
 * never sees or sends an absolute path, so it can only reach directories the user chose.
 *
 * Capacity is bounded (oldest token evicted first) so a renderer opening files in a loop cannot
 * grow main's memory without limit.
 */

/** Most directory tokens alive at once; far more than a session opens by hand. */
export const MAX_DIRECTORY_TOKENS = 256;

export class TokenRegistry {
  private readonly dirs = new Map<string, string>();

  /** `newToken` must return unguessable strings (crypto.randomUUID in main, a counter in tests). */
  constructor(private readonly newToken: () => string) {}

  issue(directory: string): string {
    let token = this.newToken();
    // A collision would hand out someone else's directory; regenerate (practically never loops).
    while (this.dirs.has(token)) token = this.newToken();
    this.dirs.set(token, directory);
    while (this.dirs.size > MAX_DIRECTORY_TOKENS) {
      const oldest = this.dirs.keys().next().value;
      if (oldest === undefined) break;
      this.dirs.delete(oldest);
    }
    return token;
  }

  /** The directory behind `token`, or undefined when main never issued it (or evicted it). */
  resolve(token: string): string | undefined {
    return this.dirs.get(token);
  }

  get size(): number {
    return this.dirs.size;
  }
}
