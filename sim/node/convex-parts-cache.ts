/**
 * Node's cache of convex decompositions (sim/robot/mesh/convex-parts.ts): one JSON file per key
 * (SHA-256 of the mesh file, URDF scale, V-HACD options, library version) in a folder, by default
 * `.cache/terrawheel/convex-parts/` under the working directory, or $TERRAWHEEL_CACHE_DIR. A
 * second run of a robot reads its parts instead of running V-HACD again. Entries are written to
 * a temporary name and renamed, so a crash leaves no half file; an entry that does not read back
 * as parts is ignored (and rewritten). Deleting the folder is always safe.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { convexPartsFromJson, type ConvexPartsCache } from '../robot/mesh/convex-parts';

/** The default folder, relative to the working directory. */
export const CONVEX_PARTS_CACHE_DIR = join('.cache', 'terrawheel', 'convex-parts');

/** A disk cache in `dir` (default $TERRAWHEEL_CACHE_DIR, else CONVEX_PARTS_CACHE_DIR). */
export function diskConvexPartsCache(dir = process.env.TERRAWHEEL_CACHE_DIR ?? CONVEX_PARTS_CACHE_DIR): ConvexPartsCache & { readonly dir: string } {
  const root = resolve(dir);
  const file = (key: string) => join(root, `${key.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
  return {
    dir: root,
    async get(key) {
      try {
        return convexPartsFromJson(JSON.parse(readFileSync(file(key), 'utf8')));
      } catch {
        return undefined; // missing or unreadable: decompose again
      }
    },
    async set(key, parts) {
      try {
        mkdirSync(root, { recursive: true });
        const tmp = `${file(key)}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(parts));
        renameSync(tmp, file(key));
      } catch {
        // a read-only or full disk only costs the next run a decomposition
      }
    },
  };
}
