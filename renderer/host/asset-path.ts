/**
 * Asset paths are relative to assets/, forward slashes, no '..', no absolute paths, no empty
 * segments: the same rule electron main enforces, so a path that works on the web works there.
 */
import { LIMITS } from '../../electron/ipc-contract';

export function isSafeAssetPath(path: string): boolean {
  if (typeof path !== 'string' || path.length === 0 || path.length > LIMITS.maxRelativePathLength) return false;
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((seg) => seg.length > 0 && seg !== '.' && seg !== '..');
}
