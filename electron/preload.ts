/**
 * Preload: exposes `window.terraWheel` (HostBridge + HostBridgeRecent) through contextBridge.
 *
 * Runs sandboxed, so it may import only `electron` (contextBridge, ipcRenderer); the build
 * bundles ipc-contract.ts and validate.ts into it. Every method is a single ipcRenderer.invoke
 * with positional arguments; main validates them again (never trust this side either).
 * The raw ipcRenderer is never exposed: the page gets only these functions.
 */

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC, IPC_OPEN_RECENT, IPC_RECORDING, IPC_RESULTS, type HostBridge, type HostBridgeRecent, type HostBridgeRecording, type HostBridgeResults, type MenuCommand } from './ipc-contract';
import { isMenuCommand } from './validate';

const bridge: HostBridge & HostBridgeRecent & HostBridgeRecording & HostBridgeResults = {
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
  openResults: () => ipcRenderer.invoke(IPC_RESULTS.open),
  readResultRecording: (token, id) => ipcRenderer.invoke(IPC_RESULTS.readRecording, token, id),
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

contextBridge.exposeInMainWorld('terraWheel', bridge);
