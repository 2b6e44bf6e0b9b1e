/**
 * Preload: exposes `window.terraWheel` (HostBridge + HostBridgeRecent) through contextBridge.
 *
 * Runs sandboxed, so it may import only `electron` (contextBridge, ipcRenderer); the build
 * bundles ipc-contract.ts and validate.ts into it. Every method is a single ipcRenderer.invoke
 * with positional arguments; main validates them again (never trust this side either).
 * The raw ipcRenderer is never exposed: the page gets only these functions.
 */

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC, IPC_LIVE_LINK, IPC_MESH_PARTS, IPC_OPEN_RECENT, IPC_RECORDING, IPC_RESULTS, LIVE_LINK_PORT_MESSAGE, type HostBridge, type HostBridgeLiveLink, type HostBridgeMeshParts, type HostBridgeRecent, type HostBridgeRecording, type HostBridgeResults, type MenuCommand } from './ipc-contract';
import { isMenuCommand } from './validate';

// Ports the page posted (window.postMessage) and forwarded to main, and starts waiting for one.
let portsForwarded = 0;
let portsUsed = 0;
let portWaiter: (() => void) | null = null;
/** Resolves once a port the page posted has reached main (then the start that uses it may go). */
function nextPort(): Promise<void> {
  if (portsForwarded > portsUsed) {
    portsUsed++;
    return Promise.resolve();
  }
  return new Promise((done) => {
    portWaiter = () => {
      portsUsed++;
      done();
    };
  });
}

const bridge: HostBridge & HostBridgeRecent & HostBridgeRecording & HostBridgeResults & HostBridgeLiveLink & HostBridgeMeshParts = {
  openFile: (kind) => ipcRenderer.invoke(IPC.openFile, kind),
  openRecent: (index) => ipcRenderer.invoke(IPC_OPEN_RECENT, index),
  readRelated: (token, relativeName) => ipcRenderer.invoke(IPC.readRelated, token, relativeName),
  saveFile: (req) => ipcRenderer.invoke(IPC.saveFile, req),
  listAssets: () => ipcRenderer.invoke(IPC.listAssets),
  readAsset: (path) => ipcRenderer.invoke(IPC.readAsset, path),
  getSettings: () => ipcRenderer.invoke(IPC.getSettings),
  setSettings: (patch) => ipcRenderer.invoke(IPC.setSettings, patch),
  recordingBegin: (suggestedName) => ipcRenderer.invoke(IPC_RECORDING.begin, suggestedName),
  recordingAppend: (id, bytes) => ipcRenderer.invoke(IPC_RECORDING.append, id, bytes),
  recordingEnd: (id) => ipcRenderer.invoke(IPC_RECORDING.end, id),
  // the page posts its port with window.postMessage (below) first: a MessagePort cannot cross contextBridge
  liveLinkStart: () => nextPort().then(() => ipcRenderer.invoke(IPC_LIVE_LINK.start)),
  liveLinkStop: () => ipcRenderer.invoke(IPC_LIVE_LINK.stop),
  liveLinkStatus: () => ipcRenderer.invoke(IPC_LIVE_LINK.status),
  openResults: () => ipcRenderer.invoke(IPC_RESULTS.open),
  readResultRecording: (token, id) => ipcRenderer.invoke(IPC_RESULTS.readRecording, token, id),
  meshConvexParts: (req) => ipcRenderer.invoke(IPC_MESH_PARTS, req),
  onMenuCommand(listener: (cmd: MenuCommand) => void): () => void {
    // Wrap so the page never receives the IpcRendererEvent (it carries a sender reference).
    const wrapped = (_event: IpcRendererEvent, cmd: unknown): void => {
      if (isMenuCommand(cmd)) listener(cmd);
    };
    ipcRenderer.on(IPC.menuCommand, wrapped);
    return () => {
      ipcRenderer.removeListener(IPC.menuCommand, wrapped);
    };
  },
};

// The live link's MessagePort (renderer/host/electron-host.ts posts it): forwarded to main as is.
globalThis.window?.addEventListener('message', (e: MessageEvent) => {
  if (e.source !== window || e.data !== LIVE_LINK_PORT_MESSAGE || e.ports.length !== 1) return;
  ipcRenderer.postMessage(IPC_LIVE_LINK.port, null, [e.ports[0]]);
  portsForwarded++;
  const w = portWaiter;
  portWaiter = null;
  w?.();
});

contextBridge.exposeInMainWorld('terraWheel', bridge);
