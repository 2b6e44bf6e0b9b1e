/**
 * The recording timeline (pixi.js), under the 3D view while a recording is open: the step range
 * as a bar, keyframe ticks, event markers (lift-off, touch-down, collisions, faults, notes), the
 * current step as a cursor; pointer down/drag scrubs (the caller seeks). The mapping between
 * steps and pixels (`TimelineScale`) is plain logic, unit-tested.
 */
import 'pixi.js/unsafe-eval';
import { Application, Graphics, Text } from 'pixi.js';

/** [px] Space left and right of the bar. */
export const TIMELINE_PAD_PX = 10;

/** Marker colours by event kind (other kinds: grey). */
export const MARKER_COLORS: Record<string, number> = {
  'lift-off': 0xff9f1a,
  'touch-down': 0x33d94d,
  collision: 0x1af2f2,
  fault: 0xff4d40,
};

export function markerColor(kind: string): number {
  return MARKER_COLORS[kind] ?? 0x9aa4b2;
}

/** Steps first..last over a bar of `width` px (with TIMELINE_PAD_PX each side). */
export class TimelineScale {
  constructor(
    readonly first: number,
    readonly last: number,
    readonly width: number,
  ) {}

  private get span(): number {
    return Math.max(1, this.last - this.first);
  }

  private get inner(): number {
    return Math.max(1, this.width - 2 * TIMELINE_PAD_PX);
  }

  x(step: number): number {
    const s = Math.max(this.first, Math.min(this.last, step));
    return TIMELINE_PAD_PX + ((s - this.first) / this.span) * this.inner;
  }

  /** The step under pixel x (clamped to the range, rounded to the nearest step). */
  step(x: number): number {
    const f = (x - TIMELINE_PAD_PX) / this.inner;
    return Math.max(this.first, Math.min(this.last, Math.round(this.first + f * this.span)));
  }
}

export interface TimelineMarker {
  step: number;
  kind: string;
}

export class TimelineView {
  private first = 0;
  private last = 0;
  private keyframes: number[] = [];
  private markers: TimelineMarker[] = [];
  private cursor = 0;
  private key = '';
  private dragging = false;
  /** Called with the step under the pointer while scrubbing. */
  onScrub: ((step: number) => void) | null = null;

  private constructor(private readonly app: Application, private readonly g: Graphics, private readonly label: Text) {
    const canvas = app.canvas;
    const at = (e: PointerEvent): number => {
      const r = canvas.getBoundingClientRect();
      return this.scale().step(e.clientX - r.left);
    };
    canvas.addEventListener('pointerdown', (e) => {
      this.dragging = true;
      canvas.setPointerCapture(e.pointerId);
      this.onScrub?.(at(e));
    });
    canvas.addEventListener('pointermove', (e) => {
      if (this.dragging) this.onScrub?.(at(e));
    });
    const end = (): void => {
      this.dragging = false;
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
  }

  static async create(canvas: HTMLCanvasElement): Promise<TimelineView | null> {
    const app = new Application();
    try {
      await app.init({
        canvas,
        width: Math.max(1, canvas.clientWidth),
        height: Math.max(1, canvas.clientHeight),
        background: 0x161b22,
        antialias: false,
        autoStart: false,
        resolution: 1,
        preference: ['webgl', 'canvas'],
        sharedTicker: false,
      });
    } catch {
      return null;
    }
    const g = new Graphics();
    const label = new Text({ text: '', style: { fontFamily: 'monospace', fontSize: 10, fill: 0xd0d6de } });
    app.stage.addChild(g, label);
    return new TimelineView(app, g, label);
  }

  scale(): TimelineScale {
    return new TimelineScale(this.first, this.last, this.app.renderer.width);
  }

  setRecording(first: number, last: number, keyframes: number[], markers: TimelineMarker[]): void {
    this.first = first;
    this.last = last;
    this.keyframes = keyframes;
    this.markers = markers;
    this.key = '';
  }

  setCursor(step: number): void {
    this.cursor = step;
  }

  draw(dt: number): void {
    const c = this.app.canvas;
    const w = Math.max(1, c.clientWidth), h = Math.max(1, c.clientHeight);
    if (this.app.renderer.width !== w || this.app.renderer.height !== h) {
      this.app.renderer.resize(w, h);
      this.key = '';
    }
    const key = `${this.first}|${this.last}|${this.cursor}|${this.markers.length}|${w}|${h}`;
    if (key === this.key) return;
    this.key = key;
    const s = this.scale();
    const g = this.g;
    const mid = Math.round(h / 2);
    g.clear();
    g.rect(s.x(this.first), mid - 3, s.x(this.last) - s.x(this.first), 6).fill(0x2d3540);
    g.rect(s.x(this.first), mid - 3, s.x(this.cursor) - s.x(this.first), 6).fill(0x3f6fb5);
    for (const k of this.keyframes) g.rect(Math.round(s.x(k)), mid + 5, 1, 5).fill(0x6b7480);
    for (const m of this.markers) g.rect(Math.round(s.x(m.step)) - 1, mid - 13, 2, 8).fill(markerColor(m.kind));
    const cx = s.x(this.cursor);
    g.rect(Math.round(cx) - 1, 2, 2, h - 4).fill(0xffffff);
    this.label.text = `step ${this.cursor} / ${this.last}  ·  ${(this.cursor * dt).toFixed(2)} s`;
    this.label.x = TIMELINE_PAD_PX;
    this.label.y = h - 13;
    this.app.render();
  }

  destroy(): void {
    this.app.destroy(false);
  }
}
