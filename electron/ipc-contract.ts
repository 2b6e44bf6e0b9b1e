/**
 * The one contract between the Electron main process, the preload bridge and the renderer.
 * Shared by both sides; contains only types and constants (no electron or node imports), so the
 * renderer may import it.
 *
 * The preload exposes `window.terraWheel: HostBridge` through contextBridge. Every call is an
 * `ipcRenderer.invoke` on one of the IPC channels below and is validated again in main.
 */

/** Kinds of user files the app opens. */
export type FileKind = 'terrain' | 'robot' | 'scenario' | 'recording';

export const FILE_KINDS: readonly FileKind[] = ['terrain', 'robot', 'scenario', 'recording'];

/** Kinds of captures the app saves (never opens): a screenshot (PNG), a video of the 3D view (WebM). */
export type CaptureKind = 'image' | 'video';

export const CAPTURE_KINDS: readonly CaptureKind[] = ['image', 'video'];

/** What a save dialog may be asked to save: a user file kind or a capture. */
export type SaveKind = FileKind | CaptureKind;

/** Channel names (ipcMain.handle / ipcRenderer.invoke), and the main → renderer menu event. */
export const IPC = {
  openFile: 'host:open-file',
  readRelated: 'host:read-related',
  saveFile: 'host:save-file',
  listAssets: 'host:list-assets',
  readAsset: 'host:read-asset',
  getSettings: 'host:get-settings',
  setSettings: 'host:set-settings',
  menuCommand: 'menu:command',
} as const;

/** A file the user chose in a dialog; `token` lets the renderer read files beside it (a terrain's image next to its sidecar). */
export interface OpenedFile {
  kind: FileKind;
  /** File name without directories (for display). */
  name: string;
  bytes: Uint8Array;
  /** Opaque handle naming the directory of the chosen file, valid for readRelated. */
  token: string;
}

export interface SaveRequest {
  kind: SaveKind;
  suggestedName: string;
  bytes: Uint8Array;
}

export interface SaveResult {
  /** File name written (without directories). */
  name: string;
}

/** A file bundled with the app under assets/ (path relative to assets/, forward slashes). */
export interface AssetEntry {
  path: string;
  kind: FileKind | 'terrain-image' | 'other';
  size: number;
}

export interface Settings {
  recentFiles: { kind: FileKind; name: string; path: string }[];
  /** Units and view preferences grow here. */
  showContacts: boolean;
}

/** Commands the application menu sends to the renderer. */
export type MenuCommand =
  | { type: 'open'; kind: FileKind }
  | { type: 'open-recent'; index: number }
  | { type: 'save-recording-as' }
  /** View ▸ Live Link: start the live link when it is off, stop it when on. */
  | { type: 'live-link' };

/** Size limits enforced in main for every payload (bytes). */
export const LIMITS = {
  /** Largest file read or written: a 16385² float32 RAW terrain is 1 GiB; recordings may be long. */
  maxFileBytes: 2 * 1024 * 1024 * 1024 - 1,
  maxNameLength: 255,
  maxRelativePathLength: 1024,
} as const;

/** What the preload exposes as `window.terraWheel`. */
export interface HostBridge {
  /** Shows an open dialog for `kind`; null if the user cancelled. */
  openFile(kind: FileKind): Promise<OpenedFile | null>;
  /** Reads `relativeName` (a plain file name, no directories) beside a previously opened file. */
  readRelated(token: string, relativeName: string): Promise<Uint8Array>;
  /** Shows a save dialog and writes the bytes; null if the user cancelled. */
  saveFile(req: SaveRequest): Promise<SaveResult | null>;
  listAssets(): Promise<AssetEntry[]>;
  readAsset(path: string): Promise<Uint8Array>;
  getSettings(): Promise<Settings>;
  setSettings(patch: Partial<Settings>): Promise<Settings>;
  /** Registers a menu listener; returns the function that unregisters it. */
  onMenuCommand(listener: (cmd: MenuCommand) => void): () => void;
}

// ---- Additions by the Electron shell (new names only; nothing above changed) ----

/** Channel for File ▸ Open Recent: main re-reads recent entry `index` (a path the user chose in an earlier dialog). */
export const IPC_OPEN_RECENT = 'host:open-recent' as const;

/**
 * Optional extension of HostBridge that the Electron preload also implements: on the menu command
 * `{ type: 'open-recent', index }` the renderer calls `openRecent(index)`. Rejects with a clear
 * message (and drops the entry) when the file no longer exists.
 * The web host has no recent files and does not implement it.
 */
export interface HostBridgeRecent {
  openRecent(index: number): Promise<OpenedFile>;
}

/**
 * Open Robot…: what openFile('robot') (and Open Recent of a robot) returns in Electron. Main reads
 * the files the URDF references inside its folder (sub-folders too) and hands them over keyed by
 * their path relative to the URDF ("meshes/base.stl"); a missing file is simply absent. A xacro
 * robot (electron/robot-xacro.ts) is named by its path in its ROS workspace
 * ("husky_description/urdf/husky.urdf.xacro", as a dropped package folder names it) and carries
 * the includes and meshes its expansion needs, keyed the same way. The web host returns a plain
 * OpenedFile (the renderer asks for each mesh through readRelated).
 */
export interface OpenedRobotFile extends OpenedFile {
  related?: Record<string, Uint8Array>;
}

/**
 * Content-Security-Policy of the renderer. Main sends it as a response header for every app://
 * page; the web build uses the same string in a <meta http-equiv="Content-Security-Policy">.
 */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'";

// ---- Recordings streamed to disk (sim/app/record-session.ts in the worker → renderer → main) ----

/** Channels of a recording written by main while the run goes (validated in electron/handlers.ts). */
export const IPC_RECORDING = {
  begin: 'recording:begin',
  append: 'recording:append',
  end: 'recording:end',
} as const;

/** Largest chunk one recording:append call may carry (the writer's chunks are about 1 MiB). */
export const MAX_RECORDING_APPEND_BYTES = 64 * 1024 * 1024;

/** Largest recording File ▸ Open Recording… hands to the renderer (it is read whole). */
export const MAX_OPEN_RECORDING_BYTES = 1024 * 1024 * 1024;

export interface RecordingBegun {
  /** Handle for append/end (issued by main, valid until end). */
  id: string;
  /** File name chosen (without directories). */
  name: string;
}

export interface RecordingEnded {
  name: string;
  bytes: number;
}

/**
 * Optional extension of HostBridge (the Electron preload implements it): main asks where to save
 * (a save dialog) and writes each chunk as it arrives, so a crash loses at most the last chunk.
 */
export interface HostBridgeRecording {
  /** Shows the save dialog; null if the user cancelled. */
  recordingBegin(suggestedName: string): Promise<RecordingBegun | null>;
  recordingAppend(id: string, bytes: Uint8Array): Promise<void>;
  recordingEnd(id: string): Promise<RecordingEnded>;
}

// ---- Live link (View ▸ Live Link): Electron main serves the app's world to Foxglove ----
// The renderer hands main a MessagePort on which the simulation worker exposes its service
// (window.postMessage → preload → ipcRenderer.postMessage on IPC_LIVE_LINK.port); main's Foxglove
// server (sim/live/foxglove-server.ts over sim/live/app-link.ts) reads and drives the world
// through it. Loopback only from the app.
export const IPC_LIVE_LINK = {
  /** ipcRenderer.postMessage with one MessagePort: the worker's service for the next start. */
  port: 'live-link:port',
  start: 'live-link:start',
  stop: 'live-link:stop',
  status: 'live-link:status',
} as const;

/** window.postMessage data the preload forwards with its port to main (the page cannot reach ipcRenderer). */
export const LIVE_LINK_PORT_MESSAGE = 'terrawheel:live-link-port' as const;

/** The Foxglove WebSocket address of the app's live link (Foxglove's default port, loopback). */
export const LIVE_LINK_HOST = '127.0.0.1';
export const LIVE_LINK_PORT = 8765;
/** The rosbridge v2 server's port next to it (rosbridge's own default; 0 turns it off). */
export const LIVE_LINK_ROSBRIDGE_PORT = 9090;
/** Where recordings a live link client starts are written: this folder in the user's Documents. */
export const LIVE_LINK_RECORD_FOLDER = 'TerraWheel';

export interface LiveLinkStatus {
  active: boolean;
  /** ws://127.0.0.1:8765 while active. */
  url: string | null;
  /** Connected Foxglove clients. */
  clients: number;
  /** ws://127.0.0.1:9090 while active with rosbridge on (absent or null: off). */
  rosbridge?: string | null;
  /** Connected rosbridge clients. */
  rosbridgeClients?: number;
  /** The file a client's start_recording is writing now, or null. */
  recording?: string | null;
}

/** What the preload exposes for the live link (Electron only). */
export interface HostBridgeLiveLink {
  /**
   * Starts serving the world behind the port the page posted just before with
   * `window.postMessage(LIVE_LINK_PORT_MESSAGE, origin, [port])` (a MessagePort cannot cross
   * contextBridge; the preload forwards it to main first); resolves to the status.
   */
  liveLinkStart(): Promise<LiveLinkStatus>;
  liveLinkStop(): Promise<LiveLinkStatus>;
  liveLinkStatus(): Promise<LiveLinkStatus>;
}

// ---- Sweep results (issue #31: `terrawheel sweep --out <dir>` opened as a table) ----

/** Channels of a sweep's output directory opened in the app (validated in electron/handlers.ts). */
export const IPC_RESULTS = {
  open: 'results:open',
  readRecording: 'results:read-recording',
} as const;

/** Largest results.csv handed to the renderer. */
export const MAX_RESULTS_CSV_BYTES = 64 * 1024 * 1024;

/** A run id as the sweep writes it (results.csv's id column, runs/<id>.mcap): letters, digits, _ and -. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A sweep's output directory as the renderer gets it. */
export interface OpenedResults {
  /** The directory's name (for display). */
  name: string;
  /** results.csv, as text. */
  csv: string;
  /** Opaque handle for readResultRecording. */
  token: string;
  /** Ids whose runs/<id>.mcap recording is there. */
  recordings: string[];
}

/** Optional HostBridge extension: the Electron preload implements it, the web host its own way. */
export interface HostBridgeResults {
  /** A directory dialog; null if the user cancelled. Rejects if it holds no results.csv. */
  openResults(): Promise<OpenedResults | null>;
  /** runs/<id>.mcap of a directory opened with openResults, as a recording to replay. */
  readResultRecording(token: string, id: string): Promise<OpenedFile>;
}

// ---- Convex decomposition of concave collision meshes (V-HACD in main, for the sim worker) ----
// vhacd-js's wasm glue builds its bindings with `new Function`, which the renderer's and the
// worker's CSP (script-src without 'unsafe-eval') refuse. So the worker asks the host, and main
// runs the same decomposition code in Node (sim/robot/mesh/convex-parts.ts decomposeMeshFile)
// through the same disk cache as the CLI. The CSP stays as it is.

/** Channel of one mesh's decomposition (validated in electron/validate.ts expectMeshPartsRequest). */
export const IPC_MESH_PARTS = 'mesh:convex-parts' as const;

/** Largest mesh file one request may carry (the sim's mesh readers refuse more: MESH_MAX_BYTES). */
export const MAX_MESH_PARTS_BYTES = 64 * 1024 * 1024;

/** Bounds of the V-HACD options main accepts (the defaults are 16, 32, 100 000, 1). */
export const MESH_PARTS_OPTION_LIMITS = {
  maxHulls: [1, 64],
  maxVerticesPerHull: [4, 256],
  voxelResolution: [1_000, 10_000_000],
  minVolumePercentError: [0.001, 50],
} as const;

/** One mesh to decompose: its path (the extension names the format), bytes, URDF scale, options. */
export interface MeshPartsRequest {
  file: string;
  bytes: Uint8Array;
  scale: [number, number, number];
  options: { maxHulls: number; maxVerticesPerHull: number; voxelResolution: number; minVolumePercentError: number };
}

/** Its convex parts: one point list per part (the mesh's scaled frame) and their total volume [m³]. */
export interface MeshParts {
  hulls: [number, number, number][][];
  volume: number;
}

/** Optional HostBridge extension (the Electron preload implements it; the web worker runs V-HACD itself). */
export interface HostBridgeMeshParts {
  meshConvexParts(req: MeshPartsRequest): Promise<MeshParts>;
}
