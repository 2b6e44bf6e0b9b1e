/**
 * 2D panel drawn with pixi.js: plots of the chosen series (plot-series.ts) over a time window the
 * user zooms (mouse wheel) and pans (drag; double-click returns to live), a minimap (minimap.ts)
 * and a timeline strip with the simulated time. The legend sits in its own strip above the data,
 * so it never covers a curve; each series is scaled to its own range, given in the legend.
 * The time at the right edge is the time of the frame on screen, the same the status bar shows.
 *
 * Pixi v8 initialises asynchronously (`await app.init`). We ask for WebGL, then pixi's canvas
 * renderer; if both fail (no GL, headless quirks), create() resolves to null and the caller shows a
 * visible note instead — never a console error. 'pixi.js/unsafe-eval' swaps pixi's generated
 * shader-sync functions for eval-free ones, as the app's CSP forbids eval.
 */
import 'pixi.js/unsafe-eval';
import { Graphics, Text, type Application } from 'pixi.js';
import { createPanelApp } from './pixi-app';
import { PLOT_CAPACITY, PLOT_WINDOW_S } from '../config';
import type { TerrainInfo } from '../../sim/app/protocol';
import { Minimap } from './minimap';
import type { SeriesDef, SeriesFrame } from './plot-series';
import { TimeSeries } from './time-series';
import { TimeWindow } from './time-window';
import { DEFAULT_UNITS, formatAxisValue, unitOf, type DisplayUnits } from '../app/units';

const SERIES_COLORS = [0x4fc3f7, 0xffb74d, 0x81c784, 0xe57373, 0xba68c8, 0xfff176, 0x4db6ac, 0xf06292];
const GRID_COLOR = 0x3a4250;
/** [px] Width kept for the run's timeline beside the minimap. */
const RUN_TIMELINE_MIN_W = 110;
/** The fault marker (the replay timeline's fault colour, panels/timeline-scale.ts). */
const FAULT_COLOR = 0xff4d40;
const TIMELINE_H = 22;
const LEGEND_LINE_H = 14;
const PAD = 6;
/** [-] Half band around a flat series, relative to its value. */
const FLAT_SERIES_PAD = 0.05;
/** [SI unit of the series] Smallest half band around a flat series. */
const FLAT_SERIES_MIN_PAD = 1e-3;
/** Most series plotted at once (legend lines and colours). */
export const PLOT_MAX_SERIES = 6;

interface Plotted {
  def: SeriesDef;
  data: TimeSeries;
  color: number;
  label: Text;
}

export class PlotPanel {
  private readonly plotted: Plotted[] = [];
  private time = 0;
  private dt = 0;
  private readonly range: [number, number] = [0, 0];
  private readonly span: [number, number] = [0, 0];
  readonly window = new TimeWindow(PLOT_WINDOW_S);
  private readonly minimap = new Minimap();
  private minimapTerrain: TerrainInfo | null = null;
  private minimapSize = 0;
  private plotWidth = 1;
  private oldest = 0;
  private units: DisplayUnits = { ...DEFAULT_UNITS };
  /** The run timeline's time label ("t = 1.23 s"), shown by the page over the strip. */
  private timeLabelText = 't = 0.00 s';
  /** [s] Time of the fault the world is stopped on (a red marker), or null. */
  private faultTime: number | null = null;

  private constructor(
    private readonly app: Application,
    private readonly plot: Graphics,
    private readonly timeline: Graphics,
  ) {
    const c = app.canvas;
    let dragX: number | null = null;
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.window.zoom(Math.exp(e.deltaY * 0.002));
    }, { passive: false });
    c.addEventListener('pointerdown', (e) => {
      dragX = e.clientX;
      c.setPointerCapture?.(e.pointerId);
    });
    c.addEventListener('pointermove', (e) => {
      if (dragX === null) return;
      this.window.pan(((e.clientX - dragX) / this.plotWidth) * this.window.length, this.time, this.oldest);
      dragX = e.clientX;
    });
    const up = (): void => {
      dragX = null;
    };
    c.addEventListener('pointerup', up);
    c.addEventListener('pointercancel', up);
    c.addEventListener('dblclick', () => this.window.reset());
  }

  /** Creates the panel on `canvas`, or resolves null when no pixi renderer works here. */
  static async create(canvas: HTMLCanvasElement): Promise<PlotPanel | null> {
    const app = await createPanelApp(canvas, 0x1c2129);
    if (app === null) return null;
    const plot = new Graphics();
    const timeline = new Graphics();
    app.stage.addChild(plot, timeline);
    const panel = new PlotPanel(app, plot, timeline);
    app.stage.addChild(panel.minimap.container);
    return panel;
  }

  /** A new world: clears the plots and redraws the minimap's terrain. */
  setWorld(terrain: TerrainInfo, dt: number): void {
    this.clear();
    this.dt = dt;
    this.minimapTerrain = terrain;
    this.minimapSize = 0; // rebuilt at the next draw, when the panel size is known
  }

  /** The series to plot (the first PLOT_MAX_SERIES); keeps the data of series already shown. */
  setSeries(defs: readonly SeriesDef[]): void {
    const keep = new Map(this.plotted.map((p) => [p.def.key, p]));
    for (const p of this.plotted) if (!defs.some((d) => d.key === p.def.key)) p.label.destroy();
    this.plotted.length = 0;
    defs.slice(0, PLOT_MAX_SERIES).forEach((def, k) => {
      const old = keep.get(def.key);
      const color = SERIES_COLORS[k % SERIES_COLORS.length];
      if (old) {
        old.color = color;
        old.label.style.fill = color;
        this.plotted.push(old);
        return;
      }
      const label = new Text({ text: def.label, style: { fontFamily: 'monospace', fontSize: 11, fill: color } });
      this.app.stage.addChild(label);
      this.plotted.push({ def, data: new TimeSeries(PLOT_CAPACITY), color, label });
    });
  }

  /** Display units of the legend (the data stay SI; each curve is scaled to its own range anyway). */
  setUnits(u: DisplayUnits): void {
    this.units = { ...u };
  }

  get seriesKeys(): string[] {
    return this.plotted.map((p) => p.def.key);
  }

  /** Robot position [m] and heading [rad] for the minimap. */
  setRobot(x: number, y: number, yaw: number): void {
    this.minimap.setRobot(x, y, yaw);
  }

  /** Adds one sample of every plotted series (call once per received frame). */
  push(f: SeriesFrame): void {
    if (f.time < this.time) this.oldest = f.time;
    for (const p of this.plotted) p.data.push(f.time, p.def.sample(f, this.dt));
    if (this.plotted.length === 0 || this.plotted[0].data.count <= 1) this.oldest = f.time;
    else this.oldest = this.plotted[0].data.timeAt(0);
  }

  /** [s] The world stopped on a fault at this time (null: no fault): a red marker on the timeline and the plots. */
  setFault(time: number | null): void {
    this.faultTime = time;
  }

  /** [s] The fault marker's time, null when none is drawn (test hook). */
  get faultMarker(): number | null {
    return this.faultTime;
  }

  /** The time label as drawn ("t = 1.23 s"…): the test hook compares it with the status bar. */
  get timeText(): string {
    return this.timeLabelText;
  }

  /** The simulated time at the plots' right edge when live (the frame on screen). */
  setTime(t: number): void {
    this.time = t;
  }

  clear(): void {
    for (const p of this.plotted) p.data.clear();
    this.time = 0;
    this.oldest = 0;
    this.window.reset();
  }

  resize(): void {
    const c = this.app.canvas;
    const w = Math.max(1, c.clientWidth), h = Math.max(1, c.clientHeight);
    if (this.app.renderer.width !== w || this.app.renderer.height !== h) this.app.renderer.resize(w, h);
  }

  /** Redraws everything (cheap: a few hundred line segments per series). */
  draw(): void {
    const W = this.app.renderer.width;
    const H = this.app.renderer.height;
    // the minimap leaves RUN_TIMELINE_MIN_W for the run's timeline (the plots are uPlot panes now: plot-panes.ts)
    const mapSize = Math.max(0, Math.min(H - 2 * PAD, W - 3 * PAD - RUN_TIMELINE_MIN_W));
    if (this.minimapTerrain && mapSize !== this.minimapSize) {
      this.minimap.setTerrain(this.minimapTerrain, mapSize);
      this.minimapSize = mapSize;
    }
    this.minimap.container.position.set(W - PAD - mapSize, PAD);
    this.minimap.container.visible = this.minimapTerrain !== null;
    const x0 = PAD, x1 = W - PAD - (this.minimapTerrain ? mapSize + PAD : 0);
    this.plotWidth = Math.max(1, x1 - x0);
    // Legend strip: as many lines as series, above the data area.
    const legendH = Math.max(1, this.plotted.length) * LEGEND_LINE_H;
    const y0 = PAD + legendH, y1 = H - TIMELINE_H - PAD;
    const plotH = Math.max(1, y1 - y0);
    const [t0, t1] = this.window.range(this.span, this.time);
    const len = t1 - t0;
    const sx = (t: number): number => x0 + ((t - t0) / len) * (x1 - x0);

    const g = this.plot;
    g.clear();
    if (this.plotted.length > 0) {
      g.rect(x0, y0, x1 - x0, plotH).stroke({ color: GRID_COLOR, width: 1 });
      const tick = len > 30 ? 10 : len > 8 ? 2 : len > 3 ? 1 : 0.5;
      for (let s = Math.ceil(t0 / tick) * tick; s <= t1; s += tick) g.moveTo(sx(s), y0).lineTo(sx(s), y1);
      g.stroke({ color: GRID_COLOR, width: 1 });
    }

    this.plotted.forEach((p, k) => {
      let [lo, hi] = p.data.range(this.range, t0);
      if (hi - lo < 1e-9) {
        // A flat series: centre it in a band of ±5 % of its value (at least ±1e-3 SI: 1 mm, 1 mN…).
        const pad = Math.max(Math.abs(lo) * FLAT_SERIES_PAD, FLAT_SERIES_MIN_PAD);
        lo -= pad;
        hi += pad;
      }
      const sy = (v: number): number => y1 - 4 - ((v - lo) / (hi - lo)) * (plotH - 8);
      this.drawSeries(g, p.data, t0, t1, sx, sy, p.color);
      const last = this.lastValue(p.data, t1);
      const { factor, symbol } = unitOf(this.units, p.def.quantity);
      const unit = symbol ? ` ${symbol}` : '';
      p.label.text = `${p.def.label}: ${formatAxisValue(last * factor)}${unit}   [${formatAxisValue(lo * factor)} … ${formatAxisValue(hi * factor)}]`;
      p.label.position.set(x0 + 4, PAD + k * LEGEND_LINE_H - 2);
    });

    // Timeline: the whole run so far, with a tick per 10 s, the playhead and the plotted window.
    const tl = this.timeline;
    const ty = H - TIMELINE_H - PAD / 2;
    tl.clear();
    tl.rect(x0, ty, x1 - x0, TIMELINE_H).fill({ color: 0x262d38 });
    const span = Math.max(10, Math.ceil(this.time / 10) * 10);
    for (let s = 0; s <= span; s += 10) {
      const x = x0 + (s / span) * (x1 - x0);
      tl.moveTo(x, ty).lineTo(x, ty + 5);
    }
    tl.stroke({ color: 0x8a94a3, width: 1 });
    const px = x0 + (this.time / span) * (x1 - x0);
    const wx0 = x0 + (Math.max(0, t0) / span) * (x1 - x0), wx1 = x0 + (Math.max(0, t1) / span) * (x1 - x0);
    tl.rect(wx0, ty + TIMELINE_H - 6, Math.max(1, wx1 - wx0), 6).fill({ color: 0x4caf50 });
    tl.moveTo(px, ty).lineTo(px, ty + TIMELINE_H).stroke({ color: 0xffffff, width: 2 });
    const ft = this.faultTime;
    if (ft !== null) {
      // the fault: a red marker on the run's timeline, and a red line through the plots when in the window
      const fx = x0 + (ft / span) * (x1 - x0);
      tl.poly([fx - 5, ty, fx + 5, ty, fx, ty + 8]).fill({ color: FAULT_COLOR });
      tl.moveTo(fx, ty).lineTo(fx, ty + TIMELINE_H).stroke({ color: FAULT_COLOR, width: 2 });
      if (ft >= t0 && ft <= t1) g.moveTo(sx(ft), y0).lineTo(sx(ft), y1).stroke({ color: FAULT_COLOR, width: 2 });
    }
    // drawn by the page (main.ts, a DOM label over the strip): a pixi Text re-rasterised and
    // uploaded as a texture every tick cost about 1 ms a frame on software GL
    this.timeLabelText = `t = ${this.time.toFixed(2)} s` + (this.window.live ? '' : `   (viewing ${t0.toFixed(1)}–${t1.toFixed(1)} s)`);

    this.app.render();
  }

  private lastValue(s: TimeSeries, t1: number): number {
    for (let k = s.count - 1; k >= 0; k--) if (s.timeAt(k) <= t1) return s.valueAt(k);
    return NaN;
  }

  private drawSeries(g: Graphics, s: TimeSeries, t0: number, t1: number, sx: (t: number) => number, sy: (v: number) => number, color: number): void {
    let started = false;
    for (let k = 0; k < s.count; k++) {
      const t = s.timeAt(k);
      if (t < t0 || t > t1) continue;
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

