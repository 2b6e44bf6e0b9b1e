/**
 * The renderer's only door to the outside world. Two implementations: the Electron preload bridge
 * (electron-host.ts, wraps `window.terraWheel`) and the browser (web-host.ts: file pickers,
 * downloads, assets served beside the app, settings in localStorage). The renderer never imports
 * electron or node; everything it needs from the platform goes through this interface.
 *
 * It mirrors electron/ipc-contract.ts HostBridge so the Electron host is a thin pass-through.
 */
import type { AssetEntry, FileKind, HostBridgeMeshParts, HostBridgeRecording, HostBridgeResults, LiveLinkStatus, MenuCommand, OpenedFile, OpenedResults, SaveRequest, SaveResult, Settings } from '../../electron/ipc-contract';

export type { AssetEntry, FileKind, LiveLinkStatus, MenuCommand, OpenedFile, OpenedResults, SaveRequest, SaveResult, Settings };

/**
 * View ▸ Live Link: a Foxglove WebSocket server over the app's own world (Electron main serves it;
 * `port` is a MessagePort on which the simulation worker exposes its service, SimClient.openPort).
 * The web host cannot open a server socket: its start rejects saying so.
 */
export interface HostLiveLink {
  start(port: MessagePort): Promise<LiveLinkStatus>;
  stop(): Promise<LiveLinkStatus>;
  status(): Promise<LiveLinkStatus>;
}

export interface Host {
  /** 'electron' or 'web', for the status bar and for tests. */
  readonly kind: 'electron' | 'web';
  /** Lets the user choose a file of `kind`; null if they cancelled. */
  openFile(kind: FileKind): Promise<OpenedFile | null>;
  /** Reads a plain file name beside a previously opened file (a terrain's image next to its sidecar). */
  readRelated(token: string, relativeName: string): Promise<Uint8Array>;
  /** Saves bytes where the user chooses (Electron: save dialog; web: a download). */
  saveFile(req: SaveRequest): Promise<SaveResult | null>;
  /** Files bundled under assets/ (paths relative to assets/, forward slashes). */
  listAssets(): Promise<AssetEntry[]>;
  readAsset(path: string): Promise<Uint8Array>;
  getSettings(): Promise<Settings>;
  setSettings(patch: Partial<Settings>): Promise<Settings>;
  /** File ▸ Open Recent (Electron only: electron/ipc-contract.ts HostBridgeRecent); absent on the web. */
  openRecent?(index: number): Promise<OpenedFile>;
  /** Recordings streamed to a file main writes (Electron only); absent on the web (a download at the end). */
  recording?: HostBridgeRecording;
  /** View ▸ Live Link (see HostLiveLink); both hosts have it (the web one refuses), test hosts may not. */
  liveLink?: HostLiveLink;
  /**
   * A sweep's output directory (`terrawheel sweep --out <dir>`): its results.csv and which runs
   * have a recording, then one run's recording (Electron: a directory dialog and validated IPC;
   * web: a folder picker). Absent where the host cannot open directories.
   */
  results?: HostBridgeResults;
  /**
   * V-HACD for the simulation worker, where the worker cannot run it (Electron: its CSP forbids
   * the wasm glue's `new Function`, so main decomposes, same code and cache as the CLI). Absent on
   * the web: the worker decomposes itself. main.ts hands it to the worker (setMeshDecomposer).
   */
  meshConvexParts?: HostBridgeMeshParts['meshConvexParts'];
  /** Registers a menu listener (the web host has no native menu: the toolbar calls it); returns the unregister function. */
  onMenuCommand(listener: (cmd: MenuCommand) => void): () => void;
}

export const DEFAULT_SETTINGS: Settings = { recentFiles: [], showContacts: true };
