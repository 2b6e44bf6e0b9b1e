/**
 * Host over the Electron preload bridge (`window.terraWheel`, see electron/ipc-contract.ts).
 * A pass-through: main validates every payload; here we only keep the renderer-side types.
 */
import type { HostBridge, HostBridgeRecent, HostBridgeRecording, HostBridgeResults } from '../../electron/ipc-contract';
import type { Host } from './host';

export function createElectronHost(bridge: HostBridge & Partial<HostBridgeRecent> & Partial<HostBridgeRecording> & Partial<HostBridgeResults>): Host {
  const { openResults, readResultRecording } = bridge;
  const results: HostBridgeResults | undefined =
    typeof openResults === 'function' && typeof readResultRecording === 'function'
      ? { openResults: () => openResults.call(bridge), readResultRecording: (token, id) => readResultRecording.call(bridge, token, id) }
      : undefined;
  const openRecent = bridge.openRecent;
  const { recordingBegin, recordingAppend, recordingEnd } = bridge;
  const recording: HostBridgeRecording | undefined =
    typeof recordingBegin === 'function' && typeof recordingAppend === 'function' && typeof recordingEnd === 'function'
      ? {
          recordingBegin: (name) => recordingBegin.call(bridge, name),
          recordingAppend: (id, bytes) => recordingAppend.call(bridge, id, bytes),
          recordingEnd: (id) => recordingEnd.call(bridge, id),
        }
      : undefined;
  return {
    kind: 'electron',
    openFile: (kind) => bridge.openFile(kind),
    readRelated: (token, name) => bridge.readRelated(token, name),
    saveFile: (req) => bridge.saveFile(req),
    listAssets: () => bridge.listAssets(),
    readAsset: (path) => bridge.readAsset(path),
    getSettings: () => bridge.getSettings(),
    setSettings: (patch) => bridge.setSettings(patch),
    onMenuCommand: (listener) => bridge.onMenuCommand(listener),
    ...(typeof openRecent === 'function' ? { openRecent: (index: number) => openRecent.call(bridge, index) } : {}),
    ...(recording ? { recording } : {}),
    ...(results ? { results } : {}),
  };
}
