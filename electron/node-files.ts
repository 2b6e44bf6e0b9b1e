/**
 * node:fs implementations of HostFiles (handlers.ts) and SettingsIo (settings-store.ts).
 * Kept apart from the handlers so tests can swap in fakes, and tested itself against a temp dir.
 */

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isListedAssetName } from './asset-kind';
import type { FileStat, FileWriter, HostFiles } from './handlers';
import type { SettingsIo } from './settings-store';

/** Most files listAssets reports; the bundled assets/ folder holds tens. */
export const MAX_LISTED_ASSETS = 10_000;

/** Deepest folder nesting walked under assets/ (guards against symlink loops and silly trees). */
export const MAX_ASSET_DEPTH = 16;

export const nodeFiles: HostFiles = {
  async stat(p: string): Promise<FileStat> {
    const st = await fs.stat(p);
    return { size: st.size, isFile: st.isFile(), nlink: st.nlink };
  },

  async lstat(p: string): Promise<FileStat> {
    const st = await fs.lstat(p);
    return { size: st.size, isFile: st.isFile(), isSymbolicLink: st.isSymbolicLink(), nlink: st.nlink };
  },

  async readFile(p: string): Promise<Uint8Array> {
    return fs.readFile(p);
  },

  async writeFile(p: string, bytes: Uint8Array): Promise<void> {
    await fs.writeFile(p, bytes);
  },

  /** A recording: every chunk written and fdatasync'd before the next (a crash loses at most one). */
  async openWriter(p: string): Promise<FileWriter> {
    const file = await fs.open(p, 'w');
    return {
      async write(bytes: Uint8Array): Promise<void> {
        let done = 0;
        while (done < bytes.length) done += (await file.write(bytes, done, bytes.length - done)).bytesWritten;
        await file.datasync();
      },
      async close(): Promise<void> {
        await file.sync();
        await file.close();
      },
    };
  },

  async listFiles(root: string): Promise<{ path: string; size: number }[]> {
    const out: { path: string; size: number }[] = [];
    async function walk(dir: string, rel: string, depth: number): Promise<void> {
      if (depth > MAX_ASSET_DEPTH || out.length >= MAX_LISTED_ASSETS) return;
      let entries;
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return; // a missing assets/ folder lists as empty
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        if (out.length >= MAX_LISTED_ASSETS) return;
        if (!isListedAssetName(e.name)) continue;
        const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
        // Symlinks are skipped on purpose: an asset must live inside the bundle.
        if (e.isDirectory()) await walk(path.join(dir, e.name), childRel, depth + 1);
        else if (e.isFile()) out.push({ path: childRel, size: (await fs.stat(path.join(dir, e.name))).size });
      }
    }
    await walk(root, '', 0);
    return out;
  },
};

/**
 * Reads root/segments… for the app:// protocol, refusing symbolic links at every component below
 * `root` (same rule as handlers.ts readContained). Throws an Error with code 'ELOOP' for a link.
 */
export async function readFileNoSymlinks(root: string, segments: readonly string[]) {
  let p = root;
  for (const seg of segments) {
    p = path.join(p, seg);
    const st = await fs.lstat(p);
    if (st.isSymbolicLink()) throw Object.assign(new Error(`${p} is a symbolic link; links are not followed`), { code: 'ELOOP' });
  }
  return fs.readFile(p);
}

export const nodeSettingsIo: SettingsIo = {
  async readText(p: string): Promise<string | null> {
    try {
      return await fs.readFile(p, 'utf8');
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return null;
      throw err;
    }
  },

  /** Write to a sibling temp file, then rename over the target: rename is atomic on one volume. */
  async writeTextAtomic(p: string, text: string): Promise<void> {
    await fs.mkdir(path.dirname(p), { recursive: true });
    const tmp = `${p}.${process.pid}.tmp`;
    await fs.writeFile(tmp, text, 'utf8');
    await fs.rename(tmp, p);
  },
};
