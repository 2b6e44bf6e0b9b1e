/**
 * Host over the Electron preload bridge (`window.terraWheel`, see electron/ipc-contract.ts).
 * A pass-through: main validates every payload; here we only keep the renderer-side types.
 */
import type { HostBridge, HostBridgeRecent } from '../../electron/ipc-contract';
import type { Host } from './host';

export function createElectronHost(bridge: HostBridge & Partial<HostBridgeRecent>): Host {
  const openRecent = bridge.openRecent;
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
  };
}
