/**
 * 2D panel drawn with pixi.js: a scrolling plot of chassis speed and contact count over the last
 * PLOT_WINDOW_S seconds, a minimap (minimap.ts), and a timeline strip with the current simulated time (recording and
 * seeking come later and will draw on the same strip).
 *
 * Pixi v8 initialises asynchronously (`await app.init`). We ask for WebGL, then pixi's canvas
 * renderer; if both fail (no GL, headless quirks), create() resolves to null and the caller shows a
 * visible note instead — never a console error. 'pixi.js/unsafe-eval' swaps pixi's generated
 * shader-sync functions for eval-free ones, as the app's CSP forbids eval.
 */
import 'pixi.js/unsafe-eval';
import { Application, Graphics, Text } from 'pixi.js';
import { PLOT_CAPACITY, PLOT_WINDOW_S } from '../config';
import type { TerrainInfo } from '../../sim/protocol';
import { Minimap } from './minimap';
import { TimeSeries } from './time-series';

const SPEED_COLOR = 0x4fc3f7;
const CONTACT_COLOR = 0xffb74d;
const GRID_COLOR = 0x3a4250;
const TIMELINE_H = 22;
const PAD = 6;

export class PlotPanel {
  readonly speed = new TimeSeries(PLOT_CAPACITY);
  readonly contactCount = new TimeSeries(PLOT_CAPACITY);
  private time = 0;
  private readonly range: [number, number] = [0, 0];
  private readonly minimap = new Minimap();
  private minimapTerrain: TerrainInfo | null = null;
  private minimapSize = 0;

  private constructor(
    private readonly app: Application,
    private readonly plot: Graphics,
    private readonly timeline: Graphics,
    private readonly labels: { speed: Text; contacts: Text; time: Text },
  ) {}

  /** Creates the panel on `canvas`, or resolves null when no pixi renderer works here. */
  static async create(canvas: HTMLCanvasElement): Promise<PlotPanel | null> {
    const app = new Application();
    try {
      await app.init({
        canvas,
        width: Math.max(1, canvas.clientWidth),
        height: Math.max(1, canvas.clientHeight),
        background: 0x1c2129,
        antialias: false,
        autoStart: false,
        resolution: 1,
        preference: ['webgl', 'canvas'],
        sharedTicker: false,
      });
    } catch {
      return null;
    }
    const style = { fontFamily: 'monospace', fontSize: 11, fill: 0xd0d6de };
    const plot = new Graphics();
    const timeline = new Graphics();
    const speed = new Text({ text: 'speed m/s', style: { ...style, fill: SPEED_COLOR } });
    const contacts = new Text({ text: 'contacts', style: { ...style, fill: CONTACT_COLOR } });
    const time = new Text({ text: 't = 0.00 s', style });
    app.stage.addChild(plot, timeline, speed, contacts, time);
    const panel = new PlotPanel(app, plot, timeline, { speed, contacts, time });
    app.stage.addChild(panel.minimap.container);
    return panel;
  }

  /** A new world: clears the plots and redraws the minimap's terrain. */
  setWorld(terrain: TerrainInfo): void {
    this.clear();
    this.minimapTerrain = terrain;
    this.minimapSize = 0; // rebuilt at the next draw, when the panel size is known
  }

  /** Robot position [m] and heading [rad] for the minimap. */
  setRobot(x: number, y: number, yaw: number): void {
    this.minimap.setRobot(x, y, yaw);
  }

  /** Adds one sample (call once per received frame). */
  push(time: number, speed: number, contacts: number): void {
    this.time = time;
    this.speed.push(time, speed);
    this.contactCount.push(time, contacts);
  }

  clear(): void {
    this.speed.clear();
    this.contactCount.clear();
    this.time = 0;
  }

  resize(): void {
    const c = this.app.canvas;
    const w = Math.max(1, c.clientWidth), h = Math.max(1, c.clientHeight);
    if (this.app.renderer.width !== w || this.app.renderer.height !== h) this.app.renderer.resize(w, h);
  }

  /** Redraws everything (cheap: a few hundred line segments). */
  draw(): void {
    const W = this.app.renderer.width;
    const H = this.app.renderer.height;
    const plotH = H - TIMELINE_H - 2 * PAD;
    // Minimap: a square on the right, as tall as the panel allows.
    const mapSize = Math.max(0, H - 2 * PAD);
    if (this.minimapTerrain && mapSize !== this.minimapSize) {
      this.minimap.setTerrain(this.minimapTerrain, mapSize);
      this.minimapSize = mapSize;
    }
    this.minimap.container.position.set(W - PAD - mapSize, PAD);
    this.minimap.container.visible = this.minimapTerrain !== null;
    const x0 = PAD, x1 = W - PAD - (this.minimapTerrain ? mapSize + PAD : 0), y0 = PAD, y1 = PAD + plotH;
    const t1 = this.time;
    const t0 = t1 - PLOT_WINDOW_S;
    const sx = (t: number): number => x0 + ((t - t0) / PLOT_WINDOW_S) * (x1 - x0);

    const g = this.plot;
    g.clear();
    g.rect(x0, y0, x1 - x0, plotH).stroke({ color: GRID_COLOR, width: 1 });
    for (let s = Math.ceil(t0); s <= t1; s++) g.moveTo(sx(s), y0).lineTo(sx(s), y1);
    g.stroke({ color: GRID_COLOR, width: 1 });

    const [slo, shi] = this.speed.range(this.range, t0);
    const sMax = Math.max(0.5, Math.abs(slo), Math.abs(shi));
    const sy = (v: number): number => y0 + plotH * 0.5 - (v / sMax) * plotH * 0.45;
    g.moveTo(x0, sy(0)).lineTo(x1, sy(0)).stroke({ color: GRID_COLOR, width: 1 });
    this.drawSeries(g, this.speed, t0, sx, sy, SPEED_COLOR);

    const cMax = Math.max(4, this.contactCount.range(this.range, t0)[1]);
    const cy = (v: number): number => y1 - (v / cMax) * plotH * 0.9;
    this.drawSeries(g, this.contactCount, t0, sx, cy, CONTACT_COLOR);

    const lastSpeed = this.speed.count ? this.speed.valueAt(this.speed.count - 1) : 0;
    const lastContacts = this.contactCount.count ? this.contactCount.valueAt(this.contactCount.count - 1) : 0;
    this.labels.speed.text = `speed ${lastSpeed.toFixed(2)} m/s (±${sMax.toFixed(1)})`;
    this.labels.speed.position.set(x0 + 4, y0 + 2);
    this.labels.contacts.text = `contacts ${lastContacts} (max ${cMax})`;
    this.labels.contacts.position.set(x0 + 4, y0 + 16);

    // Timeline: the whole run so far, with a tick per 10 s and the playhead at the end.
    const tl = this.timeline;
    const ty = H - TIMELINE_H - PAD / 2;
    tl.clear();
    tl.rect(x0, ty, x1 - x0, TIMELINE_H).fill({ color: 0x262d38 });
    const span = Math.max(10, Math.ceil(t1 / 10) * 10);
    for (let s = 0; s <= span; s += 10) {
      const x = x0 + (s / span) * (x1 - x0);
      tl.moveTo(x, ty).lineTo(x, ty + 5);
    }
    tl.stroke({ color: 0x8a94a3, width: 1 });
    const px = x0 + (t1 / span) * (x1 - x0);
    tl.rect(x0, ty + TIMELINE_H - 4, px - x0, 4).fill({ color: 0x4caf50 });
    tl.moveTo(px, ty).lineTo(px, ty + TIMELINE_H).stroke({ color: 0xffffff, width: 2 });
    this.labels.time.text = `t = ${t1.toFixed(2)} s`;
    this.labels.time.position.set(x0 + 4, ty + 5);

    this.app.render();
  }

  private drawSeries(g: Graphics, s: TimeSeries, t0: number, sx: (t: number) => number, sy: (v: number) => number, color: number): void {
    let started = false;
    for (let k = 0; k < s.count; k++) {
      const t = s.timeAt(k);
      if (t < t0) continue;
      const x = sx(t), y = sy(s.valueAt(k));
      if (!started) {
        g.moveTo(x, y);
        started = true;
      } else g.lineTo(x, y);
    }
    if (started) g.stroke({ color, width: 1.5 });
  }

  dispose(): void {
    this.app.destroy();
  }
}
