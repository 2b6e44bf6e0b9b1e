/**
 * View ▸ Live Link in the renderer: starts or stops the Foxglove server Electron main runs over
 * this app's world (electron/live-link.ts), handing it a MessagePort on which the simulation
 * worker exposes its service, and keeps the status line's "live ws://… · n clients" current.
 * The browser host refuses with a message (shown in the banner).
 */
import type { Host, LiveLinkStatus } from '../host/host';

/** [ms] How often the client count is asked for while the link is on. */
export const LIVE_LINK_STATUS_MS = 1000;

export class LiveLinkControl {
  private value: LiveLinkStatus = { active: false, url: null, clients: 0 };
  private timer: ReturnType<typeof setInterval> | null = null;
  private busy = false;

  constructor(
    private readonly host: Pick<Host, 'liveLink'>,
    private readonly openPort: () => Promise<MessagePort>,
    private readonly report: (message: string) => void,
  ) {}

  get status(): LiveLinkStatus {
    return this.value;
  }

  /** On when off, off when on; a failure goes to `report`. */
  async toggle(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const link = this.host.liveLink;
      if (!link) throw new Error('The live link is not available in this host.');
      this.set(this.value.active ? await link.stop() : await link.start(await this.openPort()));
    } catch (e) {
      this.report(e instanceof Error ? e.message : String(e));
    } finally {
      this.busy = false;
    }
  }

  /**
   * The status line's part: "live ws://127.0.0.1:8765 · 1 client · rosbridge ws://127.0.0.1:9090 · 0
   * clients · ● recording /home/…/run1.mcap", or null while off.
   */
  text(): string | null {
    const s = this.value;
    if (!s.active) return null;
    const n = (k: number) => `${k} client${k === 1 ? '' : 's'}`;
    const parts = [`live ${s.url} · ${n(s.clients)}`];
    if (s.rosbridge) parts.push(`rosbridge ${s.rosbridge} · ${n(s.rosbridgeClients ?? 0)}`);
    if (s.recording) parts.push(`● recording ${s.recording}`);
    return parts.join(' · ');
  }

  private set(s: LiveLinkStatus): void {
    this.value = s;
    if (s.active && this.timer === null) {
      this.timer = setInterval(() => {
        this.host.liveLink?.status().then((v) => this.set(v), () => undefined);
      }, LIVE_LINK_STATUS_MS);
    } else if (!s.active && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
