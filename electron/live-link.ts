/**
 * View ▸ Live Link in Electron main: the Foxglove WebSocket server (sim/live/foxglove-server.ts)
 * and the rosbridge v2 server (sim/live/rosbridge/server.ts) over the app's own world, which lives
 * in the renderer's simulation worker. The renderer sends a MessagePort on which the worker exposes
 * its SimService (IPC_LIVE_LINK.port); `start` wraps it with Comlink into an AppLiveLink
 * (sim/live/app-link.ts) and serves it on ws://127.0.0.1:8765 (Foxglove) and ws://127.0.0.1:9090
 * (rosbridge; port 0 in the options turns it off), loopback only. A client's start_recording
 * writes `<recordDir>/<file>.mcap` (main passes ~/Documents/TerraWheel; created when needed).
 * `stop` finishes such a recording, closes the servers and the link and releases the port; the
 * world is untouched either way.
 *
 * Electron-free (main.ts passes MessagePortMain through `portEndpoint`), so it is tested in Node
 * with a MessageChannel's port, as the renderer's SimClient is.
 */
import * as Comlink from 'comlink';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SimService } from '../sim/app/protocol';
import { AppLiveLink, type RecordingFileSink } from '../sim/live/app-link';
import { startFoxgloveServer, type FoxgloveLiveServer } from '../sim/live/foxglove-server';
import { startRosbridgeServer, type RosbridgeServer } from '../sim/live/rosbridge/server';
import { IPC_LIVE_LINK, LIVE_LINK_HOST, LIVE_LINK_PORT, LIVE_LINK_ROSBRIDGE_PORT, type LiveLinkStatus } from './ipc-contract';

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
  /** The rosbridge server's port: default LIVE_LINK_ROSBRIDGE_PORT (9090); 0 turns it off (as `serve --rosbridge-port 0`); 'any' picks a free port (tests). */
  rosbridgePort?: number | 'any';
  /** Where a client's start_recording writes (created when needed); without it, start_recording is refused. */
  recordDir?: string;
  /** fsync every chunk of a client's recording (default true; tests pass false). */
  syncRecordings?: boolean;
  log?: (line: string) => void;
}

/**
 * A recording file a client's start_recording writes (created or truncated), each chunk
 * fdatasync'd when `sync` (a crash loses at most the chunk being written, as the app's own
 * recordings). Here rather than sim/node/record-file.ts's FileSink, which would bring the
 * recording codecs' WebAssembly into main's bundle.
 */
export async function createFileSink(path: string, sync: boolean): Promise<RecordingFileSink> {
  const file = await open(path, 'w');
  return {
    write: async (bytes) => {
      let done = 0;
      while (done < bytes.length) done += (await file.write(bytes, done, bytes.length - done)).bytesWritten;
      if (sync) await file.datasync();
    },
    close: () => file.close(),
  };
}

/**
 * The rosbridge port main uses: `TERRAWHEEL_ROSBRIDGE_PORT` from the environment (an integer 0..65535,
 * 0 turns rosbridge off), else LIVE_LINK_ROSBRIDGE_PORT. Throws naming a bad value.
 */
export function rosbridgePortFromEnv(env: Record<string, string | undefined>): number {
  const v = env.TERRAWHEEL_ROSBRIDGE_PORT;
  if (v === undefined || v === '') return LIVE_LINK_ROSBRIDGE_PORT;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new Error(`TERRAWHEEL_ROSBRIDGE_PORT must be an integer from 0 (off) to 65535, got ${JSON.stringify(v)}`);
  return n;
}

/** The live link's state in main: the port the renderer sent, the link and the server while on. */
export class LiveLinkHost {
  private endpoint: (Comlink.Endpoint & { close(): void }) | null = null;
  private link: AppLiveLink | null = null;
  private server: FoxgloveLiveServer | null = null;
  private ros: RosbridgeServer | null = null;
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
    if (s === null) return { active: false, url: null, clients: 0, rosbridge: null, rosbridgeClients: 0, recording: null };
    return { active: true, url: s.url, clients: s.stats().clients.length, rosbridge: this.ros?.url ?? null, rosbridgeClients: this.ros?.clientCount() ?? 0, recording: this.link?.recordingPath ?? null };
  }

  /** Serves the world behind the attached port; an active link is left as it is. Rejects with what is wrong. */
  start(): Promise<LiveLinkStatus> {
    return this.serial(async () => {
      if (this.server !== null) return this.status();
      const ep = this.endpoint;
      if (ep === null) throw new Error('live link: no simulation worker port was sent (load a world first)');
      const remote = Comlink.wrap<SimService>(ep);
      const o = this.options;
      const recordDir = o.recordDir;
      const sync = o.syncRecordings ?? true;
      const openRecording = recordDir === undefined ? undefined : async (path: string) => {
        await mkdir(dirname(path), { recursive: true });
        return createFileSink(path, sync);
      };
      let link: AppLiveLink | null = null;
      let fox: FoxgloveLiveServer | null = null;
      let ros: RosbridgeServer | null = null;
      let which = `port ${o.port ?? LIVE_LINK_PORT}`;
      try {
        link = await AppLiveLink.connect(remote, { log: o.log, openRecording });
        fox = await startFoxgloveServer(link, { host: LIVE_LINK_HOST, port: o.port ?? LIVE_LINK_PORT, name: `TerraWheel app: ${link.info().scenarioName}`, log: o.log, recordDir });
        const rosPort = o.rosbridgePort ?? LIVE_LINK_ROSBRIDGE_PORT;
        if (rosPort !== 0) {
          which = `rosbridge port ${rosPort}`;
          ros = await startRosbridgeServer(link, { host: LIVE_LINK_HOST, port: rosPort === 'any' ? 0 : rosPort, log: o.log });
        }
        this.link = link;
        this.server = fox;
        this.ros = ros;
        this.remote = remote;
      } catch (e) {
        await fox?.close().catch(() => undefined);
        await link?.close().catch(() => undefined);
        remote[Comlink.releaseProxy]();
        this.endpoint = null;
        ep.close();
        const m = (e as Error).message;
        throw new Error(/EADDRINUSE/.test(m) ? `live link: ${which} is in use (is \`terrawheel serve\` or another app running?)` : `live link: ${m}`);
      }
      return this.status();
    });
  }

  /** Stops serving and releases the port (the world is untouched). */
  stop(): Promise<LiveLinkStatus> {
    return this.serial(async () => {
      await this.ros?.close();
      await this.server?.close();
      await this.link?.close(); // finishes a client's recording
      this.ros = null;
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
