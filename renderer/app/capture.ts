/**
 * Capture (issue #30): a screenshot (PNG) and a video (WebM) of the 3D view with what it overlays
 * (contact markers, normals, element outlines, the map edge: all drawn in the same WebGL canvas),
 * and a contact's data as JSON on the clipboard. Files are saved through the Host (web: a download;
 * Electron: main's save dialog, electron/handlers.ts saveFile with kind 'image' or 'video').
 *
 * The WebGL canvas keeps no drawing buffer between frames (preserveDrawingBuffer off: cheaper), so
 * the screenshot renders a frame and encodes it in the same task, before the buffer is presented
 * and cleared. The video is MediaRecorder on the canvas's captureStream: the browser's own VP8/VP9
 * encoder, no frames copied through script.
 */
import type { Host } from '../host/host';
import { h, messageOf } from './dom';

/** [frames/s] Video frame rate asked of captureStream (the render loop's rate caps it anyway). */
export const VIDEO_FPS = 30;
/** [bit/s] Video bit rate: a 1280 × 720 view stays sharp enough to read markers. */
export const VIDEO_BITS_PER_SECOND = 4_000_000;
/** [ms] MediaRecorder hands over data in chunks this long (a stop loses at most one). */
const VIDEO_TIMESLICE_MS = 1000;

/** The first WebM container the browser's MediaRecorder can write, or '' if none. */
export function webmMimeType(isSupported: (t: string) => boolean): string {
  for (const t of ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm']) if (isSupported(t)) return t;
  return '';
}

/** A file name stem from the scenario's name and the time: "rolling-hills-2026-12-07T02-30-00". */
export function captureName(scenario: string, when: Date): string {
  const stem = scenario.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48) || 'terrawheel';
  return `${stem}-${when.toISOString().slice(0, 19).replace(/:/g, '-')}`;
}

export interface CaptureDeps {
  host: Host;
  canvas: HTMLCanvasElement;
  /** Renders the 3D view now (the screenshot reads the frame in the same task). */
  render(): void;
  scenarioName(): string;
  /** A message for the user (a failure, or where the file went). */
  notify(message: string): void;
}

/** What the test hook reports of the captures. */
export interface CaptureState {
  recordingVideo: boolean;
  screenshots: number;
  videos: number;
  /** Bytes of the last file saved, and its name. */
  lastBytes: number;
  lastName: string;
}

export class CaptureControls {
  readonly btnShot: HTMLButtonElement;
  readonly btnVideo: HTMLButtonElement;
  private recorder: MediaRecorder | null = null;
  private chunks: Blob[] = [];
  private startedAt = 0;
  private timer = 0;
  readonly state: CaptureState = { recordingVideo: false, screenshots: 0, videos: 0, lastBytes: 0, lastName: '' };

  constructor(private readonly d: CaptureDeps, toolbar: HTMLElement, before: Node | null) {
    this.btnShot = h('button', '▣ PNG', '', { id: 'btn-screenshot', type: 'button', title: 'Save a screenshot of the 3D view (PNG)', 'data-testid': 'btn-screenshot' });
    this.btnVideo = h('button', '◉ Video', '', { id: 'btn-video', type: 'button', title: 'Record a video of the 3D view (WebM); click again to stop and save', 'data-testid': 'btn-video' });
    toolbar.insertBefore(this.btnShot, before);
    toolbar.insertBefore(this.btnVideo, before);
    this.btnShot.addEventListener('click', () => void this.screenshot());
    this.btnVideo.addEventListener('click', () => (this.recorder ? this.stopVideo() : this.startVideo()));
  }

  /** Renders and saves the 3D view as a PNG of the canvas's size. */
  async screenshot(): Promise<void> {
    const { canvas } = this.d;
    const blob = await new Promise<Blob | null>((resolve) => {
      this.d.render();
      canvas.toBlob(resolve, 'image/png');
    });
    if (!blob) {
      this.d.notify('Screenshot failed: the browser could not encode the 3D view.');
      return;
    }
    this.state.screenshots++;
    await this.save('image', `${captureName(this.d.scenarioName(), new Date())}.png`, blob);
  }

  startVideo(): void {
    const mime = typeof MediaRecorder === 'undefined' ? '' : webmMimeType((t) => MediaRecorder.isTypeSupported(t));
    if (!mime || typeof this.d.canvas.captureStream !== 'function') {
      this.d.notify('Video capture is not available in this browser (no WebM MediaRecorder or canvas stream).');
      return;
    }
    let rec: MediaRecorder;
    try {
      rec = new MediaRecorder(this.d.canvas.captureStream(VIDEO_FPS), { mimeType: mime, videoBitsPerSecond: VIDEO_BITS_PER_SECOND });
    } catch (e) {
      this.d.notify(`Video capture failed to start: ${messageOf(e)}`);
      return;
    }
    this.chunks = [];
    rec.ondataavailable = (e) => {
      if (e.data.size > 0) this.chunks.push(e.data);
    };
    const name = `${captureName(this.d.scenarioName(), new Date())}.webm`;
    rec.onstop = () => {
      for (const t of rec.stream.getTracks()) t.stop();
      const blob = new Blob(this.chunks, { type: 'video/webm' });
      this.chunks = [];
      this.state.videos++;
      void this.save('video', name, blob);
    };
    rec.start(VIDEO_TIMESLICE_MS);
    this.recorder = rec;
    this.startedAt = performance.now();
    this.state.recordingVideo = true;
    this.btnVideo.classList.add('recording');
    this.timer = window.setInterval(() => this.label(), 500);
    this.label();
  }

  stopVideo(): void {
    const rec = this.recorder;
    if (!rec) return;
    this.recorder = null;
    this.state.recordingVideo = false;
    window.clearInterval(this.timer);
    this.btnVideo.classList.remove('recording');
    this.btnVideo.textContent = '◉ Video';
    rec.stop(); // the last chunk, then onstop saves
  }

  private label(): void {
    this.btnVideo.textContent = `■ Stop ${((performance.now() - this.startedAt) / 1000).toFixed(0)} s`;
  }

  private async save(kind: 'image' | 'video', name: string, blob: Blob): Promise<void> {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    try {
      const saved = await this.d.host.saveFile({ kind, suggestedName: name, bytes });
      if (saved) {
        this.state.lastBytes = bytes.byteLength;
        this.state.lastName = saved.name;
      }
    } catch (e) {
      this.d.notify(`Could not save ${name}: ${messageOf(e)}`);
    }
  }
}

/** Puts `text` on the clipboard; resolves false (and says why through `notify`) when it cannot. */
export async function copyText(text: string, notify: (m: string) => void): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    notify(`Could not copy to the clipboard: ${messageOf(e)}`);
    return false;
  }
}
