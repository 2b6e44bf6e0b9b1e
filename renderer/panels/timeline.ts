/**
 * The recording timeline (pixi.js), under the 3D view while a recording is open: the step range
 * as a bar, keyframe ticks, event markers (lift-off, touch-down, collisions, faults, notes), the
 * current step as a cursor; pointer down/drag scrubs (the caller seeks). The mapping between
 * steps and pixels (`TimelineScale`) is plain logic, unit-tested.
 */
import 'pixi.js/unsafe-eval';
import { Graphics, Text, type Application } from 'pixi.js';
import { createPanelApp } from './pixi-app';

import { markerColor, TimelineScale, TIMELINE_PAD_PX } from './timeline-scale';

export { markerColor, TimelineScale, TIMELINE_PAD_PX };

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
    const app = await createPanelApp(canvas, 0x161b22);
    if (app === null) return null;
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
