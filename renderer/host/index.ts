/**
 * Picks the host at startup: the Electron preload bridge when `window.terraWheel` exists,
 * otherwise the browser host.
 */
import type { HostBridge, HostBridgeRecent } from '../../electron/ipc-contract';
import { createElectronHost } from './electron-host';
import type { Host } from './host';
import { createWebHost, type WebHostOptions } from './web-host';

declare global {
  interface Window {
    terraWheel?: HostBridge & Partial<HostBridgeRecent>;
  }
}

export function pickHost(webOptions: WebHostOptions = {}): Host {
  if (typeof window !== 'undefined' && window.terraWheel) return createElectronHost(window.terraWheel);
  return createWebHost(webOptions);
}

export type { Host } from './host';
