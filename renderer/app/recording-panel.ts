/**
 * Recording in the app: the toolbar's record button (elapsed simulated time and size while
 * recording), Open recording… (toolbar, File menu, a .mcap dropped on the window: app/drop-files.ts), and, while a
 * recording is open, the timeline bar under the 3D view: play/pause, speed, scrubbing (exact
 * seek in the worker), Branch from here, Verify, Export CSV, Close.
 *
 * The worker records (sim/app/record-session.ts) and hands the file's bytes here chunk by chunk:
 * in Electron they go straight to the file main writes (recording:append, chosen in a save
 * dialog at the start); in the browser they are kept and saved as a download at the end. The
 * last recording also stays in memory (up to KEEP_RECORDING_BYTES) for "Replay".
 */
import type { RecordingStatus, RecordingSummary, TimelineEvent, VerifyResult } from '../../sim/app/protocol';
import type { Host, OpenedFile } from '../host/host';
import type { SimClient } from '../sim-client';
import { TimelineView } from '../panels/timeline';
import type { Banner } from './banner';
import { h, messageOf } from './dom';

/** Most bytes of the last recording kept in memory for Replay (a longer one is replayed from its file). */
export const KEEP_RECORDING_BYTES = 256 * 1024 * 1024;
/** [ms] Status poll period while recording or replaying. */
const POLL_MS = 200;
/** Replay speeds offered (simulated seconds per wall second). */
export const REPLAY_SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4, 10] as const;

export interface RecordingPanelDeps {
  host: Host;
  banner: Banner;
  /** The worker (its failed commands are reported by the client itself). */
  sim: SimClient;
  /** Name of the loaded scenario (default file name, scenario path in the file). */
  scenarioName(): string | null;
  /** The world jumped (seek, open): drop interpolation history. */
  onJump(): void;
  /** The replay was branched: the user drives now (resume the clock). */
  onBranch(): void;
  /** Index of the robot's base body (its pose is what the test hook reports). */
  baseBody(): number;
}

import { joinParts, recordingLabel, suggestedRecordingName } from './recording-format';

export { joinParts, recordingLabel, suggestedRecordingName };

interface ActiveRecording {
  name: string;
  /** Electron: the id main issued; web: null (download at the end). */
  streamId: string | null;
  parts: Uint8Array[] | null;
  /** Bytes that landed: written by main (Electron), or kept (web). */
  bytes: number;
  /** Sequential appends: each chunk waits for the one before. */
  chain: Promise<void>;
  error: unknown;
}

export class RecordingPanel {
  private readonly btnRecord: HTMLButtonElement;
  private readonly btnReplay: HTMLButtonElement;
  private readonly wrap: HTMLDivElement;
  private readonly btnPlay: HTMLButtonElement;
  private readonly speed: HTMLSelectElement;
  private readonly info: HTMLSpanElement;
  private readonly result: HTMLSpanElement;
  private timeline: TimelineView | null = null;
  private active: ActiveRecording | null = null;
  private status: RecordingStatus | null = null;
  private last: { name: string; parts: Uint8Array[] } | null = null;
  private summary: RecordingSummary | null = null;
  private events: TimelineEvent[] = [];
  private step = 0;
  private running = false;
  private seeking = false;
  private pendingSeek: number | null = null;
  private verifyResult: VerifyResult | null = null;
  private recordedChassis: number[] | null = null;
  private saved: { name: string; bytes: number } | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private busy = false;

  constructor(private readonly d: RecordingPanelDeps) {
    const toolbar = document.getElementById('toolbar');
    const workspace = document.getElementById('workspace');
    if (!toolbar || !workspace) throw new Error('index.html is missing #toolbar or #workspace');
    this.btnRecord = h('button', '● Rec', '', { id: 'btn-record', type: 'button', title: 'Record the run to an MCAP file', 'data-testid': 'btn-record' });
    const btnOpen = h('button', 'Open rec…', '', { id: 'btn-open-recording', type: 'button', title: 'Open an MCAP recording (or drop one on the window)', 'data-testid': 'btn-open-recording' });
    this.btnReplay = h('button', 'Replay', '', { id: 'btn-replay', type: 'button', title: 'Open the recording just made', 'data-testid': 'btn-replay' });
    this.btnReplay.hidden = true;
    toolbar.insertBefore(this.btnRecord, document.getElementById('btn-help'));
    toolbar.insertBefore(this.btnReplay, document.getElementById('btn-help'));
    toolbar.insertBefore(btnOpen, document.getElementById('btn-help'));

    this.wrap = h('div', '', '', { id: 'timeline-wrap', 'data-testid': 'timeline' });
    this.wrap.hidden = true;
    const bar = h('div', '', 'timeline-controls');
    this.btnPlay = h('button', '▶ Play', '', { type: 'button', 'data-testid': 'timeline-play' });
    this.speed = h('select', '', '', { title: 'Replay speed', 'data-testid': 'timeline-speed' });
    for (const s of REPLAY_SPEEDS) this.speed.appendChild(h('option', `${s}×`, '', { value: String(s) }));
    this.speed.value = '1';
    const btnBranch = h('button', 'Branch from here', '', { type: 'button', title: 'Take the controls here and record a new run naming this one as its parent', 'data-testid': 'timeline-branch' });
    const btnVerify = h('button', 'Verify', '', { type: 'button', title: 'Re-simulate the recording and compare state hashes', 'data-testid': 'timeline-verify' });
    const btnCsv = h('button', 'Export CSV', '', { type: 'button', title: 'Per-wheel contact data of every step', 'data-testid': 'timeline-csv' });
    const btnClose = h('button', 'Close', '', { type: 'button', 'data-testid': 'timeline-close' });
    this.info = h('span', '', 'timeline-info');
    this.result = h('span', '', 'timeline-result', { 'data-testid': 'timeline-result' });
    bar.append(this.btnPlay, this.speed, btnBranch, btnVerify, btnCsv, btnClose, this.info, this.result);
    const canvas = h('canvas', '', '', { id: 'timeline', 'data-testid': 'timeline-canvas' });
    this.wrap.append(bar, canvas);
    workspace.after(this.wrap);
    TimelineView.create(canvas).then(
      (t) => {
        this.timeline = t;
        if (t) t.onScrub = (s) => this.seek(s);
        this.refreshTimeline();
      },
      () => undefined,
    );

    this.btnRecord.addEventListener('click', () => void (this.active ? this.stop() : this.start(false)));
    this.btnReplay.addEventListener('click', () => void this.replayLast());
    btnOpen.addEventListener('click', () => this.openViaHost());
    this.btnPlay.addEventListener('click', () => void this.setPlaying(!this.running));
    this.speed.addEventListener('change', () => void d.sim.setTimeScale(Number(this.speed.value)));
    btnBranch.addEventListener('click', () => void this.start(true));
    btnVerify.addEventListener('click', () => void this.verify());
    btnCsv.addEventListener('click', () => void this.exportCsv());
    btnClose.addEventListener('click', () => this.close());
    for (const b of [this.btnRecord, this.btnReplay, btnOpen]) b.addEventListener('click', () => b.blur());
    for (const b of bar.querySelectorAll<HTMLElement>('button, select')) b.addEventListener(b.tagName === 'SELECT' ? 'change' : 'click', () => b.blur());
    // Dropped .mcap files arrive through the window's one drop handler (app/drop-files.ts → openOpened).
  }

  // --- recording ---------------------------------------------------------------------------

  /** Starts recording (or, with `branch`, branches the open replay at its current step). */
  async start(branch: boolean): Promise<void> {
    if (this.active || this.busy) return;
    if (branch && !this.summary) {
      this.d.banner.show('Open a recording and seek first: a branch starts from a replayed step.');
      return;
    }
    this.busy = true;
    try {
      const suggested = suggestedRecordingName(branch ? `${this.summary?.name.replace(/\.mcap$/i, '') ?? 'run'}-branch` : this.d.scenarioName());
      let streamId: string | null = null;
      let name = suggested;
      if (this.d.host.recording) {
        const begun = await this.d.host.recording.recordingBegin(suggested);
        if (begun === null) return; // cancelled
        streamId = begun.id;
        name = begun.name;
      }
      const rec: ActiveRecording = { name, streamId, parts: [], bytes: 0, chain: Promise.resolve(), error: null };
      const stream = this.d.host.recording;
      let kept = 0;
      const onChunk = async (bytes: Uint8Array): Promise<void> => {
        kept += bytes.length;
        if (rec.parts) {
          if (kept <= KEEP_RECORDING_BYTES) rec.parts.push(bytes);
          else rec.parts = null;
        }
        if (streamId !== null && stream) {
          // counted once main has written it (the button shows what is on disk)
          rec.chain = rec.chain.then(() => stream.recordingAppend(streamId, bytes)).then(
            () => void (rec.bytes += bytes.length),
            (e: unknown) => {
              rec.error ??= e;
            },
          );
          await rec.chain;
          if (rec.error) throw rec.error;
        } else rec.bytes += bytes.length;
      };
      const options = { scenarioPath: this.d.scenarioName() ?? undefined };
      this.active = rec;
      this.status = await this.d.sim.startRecording(options, onChunk, branch);
      if (branch) {
        this.d.onBranch();
        this.running = true;
      }
      this.ensurePolling();
      this.render();
    } catch (e) {
      this.active = null;
      this.d.banner.show(`Could not start recording: ${messageOf(e)}`);
    } finally {
      this.busy = false;
    }
  }

  async stop(): Promise<void> {
    const rec = this.active;
    if (!rec || this.busy) return;
    this.busy = true;
    try {
      this.status = await this.d.sim.stopRecording();
      await rec.chain;
      if (rec.error) throw rec.error;
      if (rec.streamId !== null && this.d.host.recording) {
        const end = await this.d.host.recording.recordingEnd(rec.streamId);
        this.saved = { name: end.name, bytes: end.bytes };
      } else if (rec.parts) {
        await this.d.host.saveFile({ kind: 'recording', suggestedName: rec.name, bytes: joinParts(rec.parts) });
        this.saved = { name: rec.name, bytes: rec.bytes };
      }
      this.last = rec.parts ? { name: rec.name, parts: rec.parts } : null;
    } catch (e) {
      this.d.banner.show(`Recording ${rec.name} could not be saved: ${messageOf(e)}`);
    } finally {
      this.active = null;
      this.busy = false;
      this.render();
    }
  }

  /** A recording is open for replay (the plots mark its seek position). */
  get replayOpen(): boolean {
    return this.summary !== null;
  }

  /** The recording running now (its file name and simulated seconds so far), or null. */
  get activeRecording(): { name: string; simSeconds: number } | null {
    return this.active ? { name: this.active.name, simSeconds: this.status?.simSeconds ?? 0 } : null;
  }

  /** Menu ▸ Save Recording As…: starts a recording (Electron asks where first). */
  saveRecordingAs(): void {
    if (this.active) this.d.banner.show(`Already recording to ${this.active.name}.`);
    else void this.start(false);
  }

  // --- replay ------------------------------------------------------------------------------

  openViaHost(): void {
    this.d.host.openFile('recording').then((f) => {
      if (f) this.openOpened(f);
    }, (e: unknown) => this.d.banner.show(messageOf(e)));
  }

  /** A recording the host read (File ▸ Open Recording…, Open Recent). */
  openOpened(f: OpenedFile): void {
    void this.openBytes(f.bytes, f.name);
  }

  async replayLast(): Promise<void> {
    if (!this.last) return;
    await this.openBytes(joinParts(this.last.parts), this.last.name);
  }

  async openBytes(bytes: Uint8Array, name: string): Promise<void> {
    if (this.active) await this.stop();
    try {
      const summary = await this.d.sim.openRecording(bytes, name);
      this.summary = summary;
      this.verifyResult = null;
      this.running = false;
      this.step = summary.firstStep;
      this.events = [];
      // Markers need every frame decoded: fill them in when ready (long files take a while).
      this.d.sim.recordingEvents().then(
        (ev) => {
          if (this.summary === summary) {
            this.events = ev;
            this.refreshTimeline();
          }
        },
        () => undefined,
      );
      this.d.onJump();
      const notes = [summary.notice, summary.sameBuild ? null : `recorded by build ${summary.buildId}: a replay may differ`].filter((x): x is string => x !== null);
      if (notes.length > 0) this.d.banner.show(`${name}: ${notes.join('; ')}`);
      else this.d.banner.hide();
      this.ensurePolling();
      this.refreshTimeline();
      this.render();
    } catch (e) {
      this.d.banner.show(`Could not open ${name}: ${messageOf(e)}`);
    }
  }

  async setPlaying(play: boolean): Promise<void> {
    if (!this.summary) return;
    if (play && this.step >= this.summary.lastStep) await this.seek(this.summary.firstStep);
    this.running = play;
    void this.d.sim.setRunning(play);
    this.render();
  }

  /** Exact seek; scrubbing sends at most one request at a time (the newest target wins). */
  async seek(step: number): Promise<void> {
    if (!this.summary) return;
    if (this.seeking) {
      this.pendingSeek = step;
      return;
    }
    this.seeking = true;
    try {
      const f = await this.d.sim.seek(step);
      this.running = false;
      this.step = f.step;
      this.d.onJump();
      this.timeline?.setCursor(f.step);
      const rf = await this.d.sim.recordedFrame(f.step);
      this.recordedChassis = rf ? this.chassisOf(rf.poses) : null;
    } catch (e) {
      this.d.banner.show(`Seek failed: ${messageOf(e)}`);
    } finally {
      this.seeking = false;
      this.render();
    }
    const next = this.pendingSeek;
    this.pendingSeek = null;
    if (next !== null && next !== this.step) await this.seek(next);
  }

  private chassisOf(poses: Float32Array): number[] {
    const k = Math.max(0, this.d.baseBody());
    return Array.from(poses.subarray(7 * k, 7 * k + 7));
  }

  async verify(): Promise<void> {
    if (!this.summary) return;
    this.result.textContent = 'verifying…';
    try {
      this.verifyResult = await this.d.sim.verify();
      this.result.textContent = this.verifyResult.message;
      this.result.className = `timeline-result ${this.verifyResult.verdict}`;
    } catch (e) {
      this.result.textContent = `verify failed: ${messageOf(e)}`;
    }
  }

  async exportCsv(): Promise<void> {
    if (!this.summary) return;
    try {
      const csv = await this.d.sim.exportCsv();
      const name = `${this.summary.name.replace(/\.mcap$/i, '')}-wheels.csv`;
      await this.d.host.saveFile({ kind: 'recording', suggestedName: name, bytes: new TextEncoder().encode(csv) });
    } catch (e) {
      this.d.banner.show(`Export failed: ${messageOf(e)}`);
    }
  }

  /** A new world was loaded: the worker dropped the replay (and stopped any recording). */
  worldChanged(): void {
    this.summary = null;
    if (this.active) void this.stop();
    this.render();
  }

  close(): void {
    void this.d.sim.closeRecording();
    this.summary = null;
    this.wrap.hidden = true;
    this.render();
  }

  // --- status ------------------------------------------------------------------------------

  private ensurePolling(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => void this.poll(), POLL_MS);
  }

  private async poll(): Promise<void> {
    if (!this.active && !this.summary) {
      if (this.timer !== null) clearInterval(this.timer);
      this.timer = null;
      return;
    }
    try {
      if (this.active) this.status = await this.d.sim.recordingStatus();
      if (this.summary && !this.seeking) {
        const r = await this.d.sim.replayStatus();
        this.step = r.step;
        this.running = r.running;
        this.timeline?.setCursor(r.step);
      }
    } catch {
      // the next poll tries again
    }
    this.render();
  }

  private refreshTimeline(): void {
    const s = this.summary;
    if (!s || !this.timeline) return;
    this.timeline.setRecording(s.firstStep, s.lastStep, s.keyframeSteps, this.events.map((e) => ({ step: e.step, kind: e.kind })));
    this.timeline.setCursor(this.step);
  }

  /** Redraws the timeline canvas (from the app's panel loop). */
  draw(): void {
    if (this.summary && this.timeline) this.timeline.draw(this.summary.dt);
  }

  private render(): void {
    const rec = this.active;
    this.btnRecord.textContent = rec ? `■ ${this.status ? recordingLabel({ simSeconds: this.status.simSeconds, bytes: rec.bytes }) : ''}` : '● Rec';
    this.btnRecord.title = rec ? `Recording to ${rec.name}: click to stop` : 'Record the run to an MCAP file';
    this.btnRecord.classList.toggle('recording', rec !== null);
    this.btnReplay.hidden = this.last === null || rec !== null;
    const s = this.summary;
    this.wrap.hidden = s === null;
    if (s) {
      this.btnPlay.textContent = this.running ? '❚❚ Pause' : '▶ Play';
      const parent = s.parent ? ` · branch of ${s.parent.recording} at step ${s.parent.step}` : '';
      this.info.textContent = `${s.name}${parent}`;
    }
  }

  /** For the test hook. */
  hookState() {
    const s = this.summary;
    return {
      recording: this.active ? { name: this.active.name, bytes: this.active.bytes, status: this.status } : null,
      saved: this.saved,
      replay: s ? { name: s.name, firstStep: s.firstStep, lastStep: s.lastStep, step: this.step, running: this.running, events: this.events.length, parent: s.parent } : null,
      recordedChassis: this.recordedChassis,
      verify: this.verifyResult ? { verdict: this.verifyResult.verdict, message: this.verifyResult.message } : null,
    };
  }
}
