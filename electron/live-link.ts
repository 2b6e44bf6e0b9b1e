/**
 * View ▸ Live Link in Electron main: the Foxglove WebSocket server (sim/live/foxglove-server.ts)
 * over the app's own world, which lives in the renderer's simulation worker. The renderer sends a
 * MessagePort on which the worker exposes its SimService (IPC_LIVE_LINK.port); `start` wraps it
 * with Comlink into an AppLiveLink (sim/live/app-link.ts) and serves it on ws://127.0.0.1:8765,
 * loopback only. `stop` closes the server and the link and releases the port; the world is
 * untouched either way.
 *
 * Electron-free (main.ts passes MessagePortMain through `portEndpoint`), so it is tested in Node
 * with a MessageChannel's port, as the renderer's SimClient is.
 */
import * as Comlink from 'comlink';
import type { SimService } from '../sim/app/protocol';
import { AppLiveLink } from '../sim/live/app-link';
import { startFoxgloveServer, type FoxgloveLiveServer } from '../sim/live/foxglove-server';
import { IPC_LIVE_LINK, LIVE_LINK_HOST, LIVE_LINK_PORT, type LiveLinkStatus } from './ipc-contract';

/** Electron's MessagePortMain as far as Comlink needs it ('message' events carry `{ data }`). */
export interface MainMessagePort {
  postMessage(message: unknown, transfer?: unknown[]): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  off(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  start(): void;
  close(): void;
}

/**
 * A Comlink endpoint over a MessagePortMain. Comlink transfers MessagePorts only for proxied
 * callbacks, which the live link never passes, so transfer lists are dropped.
 */
export function portEndpoint(port: MainMessagePort): Comlink.Endpoint & { close(): void } {
  const wrapped = new Map<unknown, (e: { data: unknown }) => void>();
  return {
    postMessage: (message: unknown) => port.postMessage(message),
    addEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
      const fn = (e: { data: unknown }): void => {
        if (typeof listener === 'function') listener(e as unknown as Event);
        else listener.handleEvent(e as unknown as Event);
      };
      wrapped.set(listener, fn);
      port.on('message', fn);
    },
    removeEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
      const fn = wrapped.get(listener);
      if (fn) port.off('message', fn);
      wrapped.delete(listener);
    },
    start: () => port.start(),
    close: () => port.close(),
  };
}

export interface LiveLinkHostOptions {
  /** Default LIVE_LINK_PORT (8765); 0 picks a free port (tests). */
  port?: number;
  log?: (line: string) => void;
}

/** The live link's state in main: the port the renderer sent, the link and the server while on. */
export class LiveLinkHost {
  private endpoint: (Comlink.Endpoint & { close(): void }) | null = null;
  private link: AppLiveLink | null = null;
  private server: FoxgloveLiveServer | null = null;
  private remote: Comlink.Remote<SimService> | null = null;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: LiveLinkHostOptions = {}) {}

  /** The renderer's port for the next start (replaces one not yet used). */
  attachPort(endpoint: Comlink.Endpoint & { close(): void }): void {
    if (this.endpoint !== null && this.link === null) this.endpoint.close();
    if (this.link === null) this.endpoint = endpoint;
    else endpoint.close(); // already serving: the running link keeps its port
  }

  status(): LiveLinkStatus {
    const s = this.server;
    return s === null ? { active: false, url: null, clients: 0 } : { active: true, url: s.url, clients: s.stats().clients.length };
  }

  /** Serves the world behind the attached port; an active link is left as it is. Rejects with what is wrong. */
  start(): Promise<LiveLinkStatus> {
    return this.serial(async () => {
      if (this.server !== null) return this.status();
      const ep = this.endpoint;
      if (ep === null) throw new Error('live link: no simulation worker port was sent (load a world first)');
      const remote = Comlink.wrap<SimService>(ep);
      try {
        const link = await AppLiveLink.connect(remote, { log: this.options.log });
        try {
          this.server = await startFoxgloveServer(link, { host: LIVE_LINK_HOST, port: this.options.port ?? LIVE_LINK_PORT, name: `TerraWheel app: ${link.info().scenarioName}`, log: this.options.log });
        } catch (e) {
          await link.close();
          throw e;
        }
        this.link = link;
        this.remote = remote;
      } catch (e) {
        remote[Comlink.releaseProxy]();
        this.endpoint = null;
        ep.close();
        const m = (e as Error).message;
        throw new Error(/EADDRINUSE/.test(m) ? `live link: port ${this.options.port ?? LIVE_LINK_PORT} is in use (is \`terrawheel serve\` or another app running?)` : `live link: ${m}`);
      }
      return this.status();
    });
  }

  /** Stops serving and releases the port (the world is untouched). */
  stop(): Promise<LiveLinkStatus> {
    return this.serial(async () => {
      await this.server?.close();
      await this.link?.close();
      this.remote?.[Comlink.releaseProxy]();
      this.endpoint?.close();
      this.server = null;
      this.link = null;
      this.remote = null;
      this.endpoint = null;
      return this.status();
    });
  }

  /** The IPC handlers (arity 0), for main to register with ipcMain.handle behind its sender check. */
  handlers(): Record<string, (args: readonly unknown[]) => Promise<LiveLinkStatus>> {
    const none = (name: string, f: () => Promise<LiveLinkStatus>) => async (args: readonly unknown[]) => {
      if (args.length !== 0) throw new Error(`${name}: expected no arguments, got ${args.length}`);
      return f();
    };
    return {
      [IPC_LIVE_LINK.start]: none('liveLinkStart', () => this.start()),
      [IPC_LIVE_LINK.stop]: none('liveLinkStop', () => this.stop()),
      [IPC_LIVE_LINK.status]: none('liveLinkStatus', async () => this.status()),
    };
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.busy.then(job, job);
    this.busy = run.catch(() => undefined);
    return run;
  }
}
