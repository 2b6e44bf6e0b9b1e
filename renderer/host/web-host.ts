/**
 * Host for a plain browser (npm run web, Playwright): <input type=file> pickers, downloads through
 * Blob + <a download>, assets fetched from the web build (assets/ copied beside index.html plus a
 * manifest generated at build time), settings in localStorage.
 *
 * Related files: a browser cannot read "the file next to this one". The user picks a terrain's
 * sidecar and its image together (the picker allows several files); the token of the opened file
 * names that selection, and readRelated looks the image up in it. If it is missing, readRelated
 * asks `requestRelated` (the UI shows a button, because a picker needs a user gesture) for a
 * second pick.
 */
import type { AssetEntry, FileKind, MenuCommand, OpenedFile, OpenedRobotFile, SaveRequest, SaveResult, Settings } from '../../electron/ipc-contract';
import { LIMITS, MAX_RESULTS_CSV_BYTES, RUN_ID_PATTERN, type OpenedResults } from '../../electron/ipc-contract';
import { DEFAULT_SETTINGS, type Host } from './host';
import { isRobotFileName, mainRobotFile } from '../../sim/robot/urdf/picked-files';
import { isXacro } from '../../sim/robot/urdf/xacro';

/** Why View ▸ Live Link does nothing here: a web page cannot open a server socket. */
export const LIVE_LINK_NOT_IN_BROWSER = 'The live link is not available in the browser (a web page cannot open a server socket): use the desktop app, or `terrawheel serve scenario.json` for a headless world.';
import { isSafeAssetPath } from './asset-path';

/** Name of the manifest the build writes next to index.html (see vite.config.ts). */
export const ASSET_MANIFEST = 'assets-manifest.json';
const SETTINGS_KEY = 'terrawheel.settings.v1';

const ACCEPT: Record<FileKind, string> = {
  terrain: '.json,.png,.tif,.tiff,.raw,.bin,.asc',
  robot: '.urdf,.xacro,.xml,.stl,.obj,.dae,.png,.jpg',
  scenario: '.json',
  recording: '.mcap',
};

/** Preferred primary file when several are picked: the URDF of a robot, else the JSON sidecar/scenario. */
function primaryOf(kind: FileKind, files: File[]): File {
  if (kind === 'robot') {
    const urdf = files.find((f) => /\.(urdf|xacro|xml)$/i.test(f.name));
    if (urdf) return urdf;
  }
  if (kind !== 'recording') {
    const json = files.find((f) => f.name.toLowerCase().endsWith('.json') || f.name.toLowerCase().endsWith('.urdf'));
    if (json) return json;
  }
  return files[0];
}

export interface WebHostOptions {
  /** Called when readRelated needs a file the user did not pick; resolves with the user's pick, or null. */
  requestRelated?: (name: string, pick: () => Promise<File[] | null>) => Promise<File | null>;
}

export interface WebHost extends Host {
  /** The web build has no native menu: the toolbar sends its commands through here. */
  dispatchMenuCommand(cmd: MenuCommand): void;
}

function pickFiles(accept: string, multiple: boolean, directory = false): Promise<File[] | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = accept;
    input.multiple = multiple;
    // a folder picker (a sweep's output directory): every file under it, with webkitRelativePath
    if (directory) input.webkitdirectory = true;
    input.style.display = 'none';
    input.dataset.testid = 'host-file-input';
    const done = (files: File[] | null): void => {
      input.remove();
      resolve(files);
    };
    input.addEventListener('change', () => done(input.files && input.files.length > 0 ? Array.from(input.files) : null), { once: true });
    input.addEventListener('cancel', () => done(null), { once: true });
    document.body.appendChild(input);
    input.click();
  });
}

export function createWebHost(options: WebHostOptions = {}): WebHost {
  const selections = new Map<string, Map<string, File>>();
  let nextToken = 1;
  const listeners = new Set<(cmd: MenuCommand) => void>();

  const readFile = async (f: File): Promise<Uint8Array> => {
    if (f.size > LIMITS.maxFileBytes) throw new Error(`${f.name}: ${f.size} bytes is over the ${LIMITS.maxFileBytes}-byte limit`);
    return new Uint8Array(await f.arrayBuffer());
  };

  /**
   * A robot picked with its files: several robot files are a xacro robot with its includes (the
   * robot is the one no other includes, picked-files.ts); a xacro robot carries every picked file
   * as `related`, which its expansion reads its includes and meshes from (robot-swap.ts).
   */
  const openRobotFiles = async (files: File[], token: string): Promise<OpenedRobotFile> => {
    const robots: { path: string; bytes: Uint8Array; file: File }[] = [];
    for (const f of files) if (isRobotFileName(f.name)) robots.push({ path: f.name, bytes: await readFile(f), file: f });
    if (robots.length === 0) {
      const primary = primaryOf('robot', files);
      return { kind: 'robot', name: primary.name, bytes: await readFile(primary), token };
    }
    const main = robots.length === 1 ? robots[0] : robots.find((r) => r.path === mainRobotFile(robots).path)!;
    const opened: OpenedRobotFile = { kind: 'robot', name: main.path, bytes: main.bytes, token };
    if (isXacro(new TextDecoder().decode(main.bytes))) {
      opened.related = {};
      for (const f of files) if (f !== main.file) opened.related[f.name] = await readFile(f);
    }
    return opened;
  };

  /** Opened results directories: run id → its runs/<id>.mcap, per token. */
  const resultSets = new Map<string, Map<string, File>>();

  const host: WebHost = {
    kind: 'web',
    liveLink: {
      start: async (port) => {
        port.close();
        throw new Error(LIVE_LINK_NOT_IN_BROWSER);
      },
      stop: async () => ({ active: false, url: null, clients: 0 }),
      status: async () => ({ active: false, url: null, clients: 0 }),
    },
    results: {
      async openResults(): Promise<OpenedResults | null> {
        const files = await pickFiles('', true, true);
        if (!files) return null;
        // paths are "<picked folder>/results.csv", "<picked folder>/runs/r0001.mcap"
        const rel = (f: File): string[] => (f.webkitRelativePath || f.name).split('/');
        const csv = files.find((f) => rel(f).length === 2 && rel(f)[1] === 'results.csv');
        const name = files.length > 0 ? rel(files[0])[0] : '';
        if (!csv) throw new Error(`'${name}' has no results.csv: choose the --out directory of a terrawheel sweep`);
        if (csv.size > MAX_RESULTS_CSV_BYTES) throw new Error(`'${name}/results.csv' is ${csv.size} bytes; the limit is ${MAX_RESULTS_CSV_BYTES} bytes`);
        const runs = new Map<string, File>();
        for (const f of files) {
          const p = rel(f);
          const id = p.length === 3 && p[1] === 'runs' ? /^(.+)\.mcap$/.exec(p[2])?.[1] : undefined;
          if (id !== undefined && RUN_ID_PATTERN.test(id)) runs.set(id, f);
        }
        const token = `web-results-${nextToken++}`;
        resultSets.set(token, runs);
        return { name, csv: await csv.text(), token, recordings: [...runs.keys()].sort() };
      },
      async readResultRecording(token, id): Promise<OpenedFile> {
        const f = resultSets.get(token)?.get(id);
        if (!f) throw new Error(`run ${id} has no recording in the opened results (runs/${id}.mcap)`);
        return { kind: 'recording', name: f.name, bytes: await readFile(f), token };
      },
    },
    async openFile(kind) {
      const files = await pickFiles(ACCEPT[kind], kind === 'terrain' || kind === 'robot');
      if (!files) return null;
      const token = `web-${nextToken++}`;
      selections.set(token, new Map(files.map((f) => [f.name, f])));
      if (kind === 'robot') return openRobotFiles(files, token);
      const primary = primaryOf(kind, files);
      const opened: OpenedFile = { kind, name: primary.name, bytes: await readFile(primary), token };
      return opened;
    },
    async readRelated(token, relativeName) {
      if (relativeName.includes('/') || relativeName.includes('\\') || relativeName === '..' || relativeName.length > LIMITS.maxNameLength) {
        throw new Error(`"${relativeName}" is not a plain file name`);
      }
      const sel = selections.get(token);
      if (!sel) throw new Error('that file selection is no longer open');
      let f = sel.get(relativeName);
      if (!f && options.requestRelated) {
        const picked = await options.requestRelated(relativeName, () => pickFiles('', false));
        if (picked) {
          sel.set(picked.name, picked);
          f = picked;
        }
      }
      if (!f) throw new Error(`"${relativeName}" was not selected: pick the sidecar JSON and ${relativeName} together`);
      return readFile(f);
    },
    async saveFile(req: SaveRequest): Promise<SaveResult | null> {
      const blob = new Blob([req.bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = req.suggestedName;
      a.style.display = 'none';
      document.body.appendChild(a);
      a.click();
      a.remove();
      // Revoke later: revoking synchronously can cancel the download in some browsers.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return { name: req.suggestedName };
    },
    async listAssets(): Promise<AssetEntry[]> {
      const res = await fetch(ASSET_MANIFEST);
      if (!res.ok) throw new Error(`asset manifest: HTTP ${res.status}`);
      const list: unknown = await res.json();
      if (!Array.isArray(list)) throw new Error('asset manifest: expected an array');
      return list as AssetEntry[];
    },
    async readAsset(path) {
      if (!isSafeAssetPath(path)) throw new Error(`asset path "${path}" is not allowed`);
      const res = await fetch(`assets/${path.split('/').map(encodeURIComponent).join('/')}`);
      if (!res.ok) throw new Error(`asset ${path}: HTTP ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    },
    async getSettings(): Promise<Settings> {
      try {
        const raw = localStorage.getItem(SETTINGS_KEY);
        if (!raw) return { ...DEFAULT_SETTINGS };
        const parsed = JSON.parse(raw) as Partial<Settings>;
        return {
          recentFiles: Array.isArray(parsed.recentFiles) ? parsed.recentFiles : [],
          showContacts: typeof parsed.showContacts === 'boolean' ? parsed.showContacts : DEFAULT_SETTINGS.showContacts,
        };
      } catch {
        return { ...DEFAULT_SETTINGS };
      }
    },
    async setSettings(patch) {
      const next = { ...(await host.getSettings()), ...patch };
      try {
        localStorage.setItem(SETTINGS_KEY, JSON.stringify(next));
      } catch {
        // storage full or disabled (private mode): settings last for this session only
      }
      return next;
    },
    onMenuCommand(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatchMenuCommand(cmd) {
      for (const l of listeners) l(cmd);
    },
  };
  return host;
}
