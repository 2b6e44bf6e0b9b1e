/**
 * File-system errors in words a user reads: "file not found: assets/terrains/hill.json (the
 * terrain sidecar)" instead of "ENOENT: no such file or directory, open '…'". Node's errors carry
 * a `code` and usually the `path`; both are used, the rest of the message is dropped.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { closest, displayPath } from './cli-args';

/** Node's error of a failed fs call (code 'ENOENT', path of the file). */
interface FsError extends Error {
  code?: string;
  path?: string;
}

export function isFsError(e: unknown): e is FsError & { code: string } {
  return e instanceof Error && typeof (e as FsError).code === 'string' && /^E[A-Z]+$/.test((e as FsError).code!);
}

/**
 * The message for a failed read or write of `path` (or the path the error names); `role` says
 * what the file is ("the scenario", "the recording to write"). Not an fs error: its own message.
 */
export function fileErrorMessage(e: unknown, path?: string, role?: string): string {
  if (!isFsError(e)) return e instanceof Error ? e.message : String(e);
  const p = displayPath(path ?? e.path ?? '?');
  const what = role ? ` (${role})` : '';
  switch (e.code) {
    case 'ENOENT':
      return `file not found: ${p}${what}`;
    case 'ENOTDIR':
      return `file not found: ${p}${what}: a part of the path is a file, not a folder`;
    case 'EISDIR':
      return `${p} is a folder, not a file${what}`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied: ${p}${what}`;
    case 'ENOSPC':
      return `no space left on the device writing ${p}${what}`;
    case 'EROFS':
      return `${p} is on a read-only file system${what}`;
    default:
      return `cannot access ${p}${what}: ${e.code}`;
  }
}

/** As fileErrorMessage for a file to be created: a missing folder is named as such. */
export function createErrorMessage(e: unknown, path: string, role: string): string {
  if (isFsError(e) && e.code === 'ENOENT') return `folder not found: ${displayPath(dirname(path))} (for ${role} ${displayPath(path)})`;
  return fileErrorMessage(e, path, role);
}

/** An Error whose message is fileErrorMessage's. */
export function fileError(e: unknown, path?: string, role?: string): Error {
  return isFsError(e) ? new Error(fileErrorMessage(e, path, role)) : (e as Error);
}

/**
 * A file next to the missing `path` whose name is a likely typo of it, with the same extension
 * (`defualt.json` → `default.json`), or null.
 */
export function similarFile(path: string): string | null {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return null;
  }
  const ext = extname(path).toLowerCase();
  const guess = closest(basename(path), names.filter((n) => extname(n).toLowerCase() === ext));
  return guess === null ? null : join(dirname(path), guess);
}

/** fileErrorMessage, plus "did you mean <sibling>?" when the file is missing and a close name exists. */
export function missingFileMessage(e: unknown, path: string, role: string): string {
  const msg = fileErrorMessage(e, path, role);
  if (!isFsError(e) || e.code !== 'ENOENT') return msg;
  const guess = similarFile(path);
  return guess === null ? msg : `${msg}; did you mean ${displayPath(guess)}?`;
}
