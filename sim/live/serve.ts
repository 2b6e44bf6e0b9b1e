/**
 * `terrawheel serve <scenario.json>`: a LiveSession of the scenario with its protocol servers
 * (Foxglove WebSocket; rosbridge v2 when it is built in), until `stop` resolves (Ctrl+C in the
 * CLI). Prints where to connect on `out`; notices (slow clients, errors) go to `err`.
 */
import type { ServeOptions } from '../node/cli-args';
import { LiveSession } from './session';
import { startFoxgloveServer, type FoxgloveLiveServer } from './foxglove-server';

/** A protocol server started over a session (the rosbridge server's shape). */
export interface LiveProtocolServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the rosbridge v2 server over a session (sim/live/rosbridge/server.ts `startRosbridgeServer`). */
export type RosbridgeStarter = (session: LiveSession, opts: { port: number; host: string; token: string | null; log: (line: string) => void }) => Promise<LiveProtocolServer>;

/** Where serve writes and when it stops. */
export interface ServeIo {
  out(text: string): void;
  err(text: string): void;
  /** Resolves when the server should stop (SIGINT/SIGTERM in the CLI). */
  stop: Promise<unknown>;
  /**
   * HOOK (live-ros, issue #32): the rosbridge v2 server. The CLI passes `startRosbridgeServer`
   * from sim/live/rosbridge/server.ts once that file is on main; until then serve runs without
   * rosbridge and says so when --rosbridge-port is not 0.
   */
  startRosbridge?: RosbridgeStarter;
  /** Called once every server listens (tests read the URLs from it). */
  onReady?: (urls: { foxglove: string; rosbridge: string | null }) => void;
}

/** Runs the session and its servers until `io.stop`; then closes them (a recording in progress is finished). */
export async function serveScenario(opts: ServeOptions, io: ServeIo): Promise<void> {
  const session = await LiveSession.open(opts.scenarioPath, { lockstep: opts.lockstep, timeScale: opts.timeScale });
  let fox: FoxgloveLiveServer | null = null;
  let ros: LiveProtocolServer | null = null;
  try {
    const log = (line: string) => io.err(line);
    fox = await startFoxgloveServer(session, { port: opts.port, host: opts.host, token: opts.token, recordDir: opts.recordDir ?? undefined, log });
    if (opts.rosbridgePort !== 0) {
      if (io.startRosbridge) ros = await io.startRosbridge(session, { port: opts.rosbridgePort, host: opts.host, token: opts.token, log });
      else io.err('rosbridge: not built into this version (pass --rosbridge-port 0 to silence this)');
    }
    const info = session.info();
    const tokenQuery = opts.token !== null ? '/?token=<token>' : '';
    io.out(
      [
        `serving       ${info.scenarioName} (${info.bodies.length} bodies, dt ${info.dt} s), ${opts.lockstep ? 'lockstep: advances only on the step service' : `running at ${session.timeScale}x`}`,
        `foxglove      ${fox.url}${tokenQuery}   (Foxglove: Open connection > Foxglove WebSocket)`,
        ...(ros ? [`rosbridge     ${ros.url}${tokenQuery}`] : []),
        'stop with     Ctrl+C',
      ].join('\n'),
    );
    io.onReady?.({ foxglove: fox.url, rosbridge: ros?.url ?? null });
    await io.stop;
    const stats = fox.stats();
    if (stats.dropped > 0 || stats.disconnectedSlow > 0) io.err(`foxglove: ${stats.dropped} message(s) dropped for slow clients, ${stats.disconnectedSlow} stuck client(s) disconnected`);
  } finally {
    await ros?.close().catch(() => undefined);
    await fox?.close().catch(() => undefined);
    await session.close();
  }
}
