/**
 * Host over the Electron preload bridge (`window.terraWheel`, see electron/ipc-contract.ts).
 * A pass-through: main validates every payload; here we only keep the renderer-side types.
 */
import { LIVE_LINK_PORT_MESSAGE, type HostBridge, type HostBridgeLiveLink, type HostBridgeMeshParts, type HostBridgeRecent, type HostBridgeRecording, type HostBridgeResults } from '../../electron/ipc-contract';
import type { Host, HostLiveLink } from './host';

const NO_LIVE_LINK = 'The live link needs a newer preload (this window\'s bridge has no live link).';

export function createElectronHost(bridge: HostBridge & Partial<HostBridgeRecent> & Partial<HostBridgeRecording> & Partial<HostBridgeResults> & Partial<HostBridgeLiveLink> & Partial<HostBridgeMeshParts>, post: (message: string, port: MessagePort) => void = (m, p) => window.postMessage(m, window.location.origin, [p])): Host {
  const { openResults, readResultRecording } = bridge;
  const results: HostBridgeResults | undefined =
    typeof openResults === 'function' && typeof readResultRecording === 'function'
      ? { openResults: () => openResults.call(bridge), readResultRecording: (token, id) => readResultRecording.call(bridge, token, id) }
      : undefined;
  const openRecent = bridge.openRecent;
  const meshConvexParts = bridge.meshConvexParts;
  const { recordingBegin, recordingAppend, recordingEnd } = bridge;
  const recording: HostBridgeRecording | undefined =
    typeof recordingBegin === 'function' && typeof recordingAppend === 'function' && typeof recordingEnd === 'function'
      ? {
          recordingBegin: (name) => recordingBegin.call(bridge, name),
          recordingAppend: (id, bytes) => recordingAppend.call(bridge, id, bytes),
          recordingEnd: (id) => recordingEnd.call(bridge, id),
        }
      : undefined;
  const { liveLinkStart, liveLinkStop, liveLinkStatus } = bridge;
  const liveLink: HostLiveLink = {
    start: (port) => {
      if (typeof liveLinkStart !== 'function') return Promise.reject(new Error(NO_LIVE_LINK));
      post(LIVE_LINK_PORT_MESSAGE, port); // the preload forwards it to main before the start goes
      return liveLinkStart.call(bridge);
    },
    stop: () => (typeof liveLinkStop === 'function' ? liveLinkStop.call(bridge) : Promise.reject(new Error(NO_LIVE_LINK))),
    status: () => (typeof liveLinkStatus === 'function' ? liveLinkStatus.call(bridge) : Promise.resolve({ active: false, url: null, clients: 0 })),
  };
  return {
    kind: 'electron',
    liveLink,
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
    ...(typeof meshConvexParts === 'function' ? { meshConvexParts: (req: Parameters<typeof meshConvexParts>[0]) => meshConvexParts.call(bridge, req) } : {}),
  };
}
