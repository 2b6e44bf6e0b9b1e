/**
 * The plots as a telemetry tool draws them, with uPlot: stacked panes, one per quantity (speed,
 * force, length…), each with its own labelled y-axis in the display unit; a shared cursor over
 * every pane whose legend reads the values under it; the time window zoomed with the mouse wheel
 * and panned by dragging (double-click: back to live). The data are the worker's per-step samples
 * (plot-store.ts), decimated min/max per pixel so spikes survive. A red line marks a fault; while a
 * replay is open a white line marks the seek position (the frame on screen), and a click seeks.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { SeriesDef } from './plot-series';
import { decimateMinMax, PlotStore } from './plot-store';
import { TimeWindow } from './time-window';
import { PLOT_WINDOW_S } from '../config';
import { DEFAULT_UNITS, formatAxisValue, unitOf, type DisplayUnits, type Quantity } from '../app/units';

const SERIES_COLORS = ['#4fc3f7', '#ffb74d', '#81c784', '#e57373', '#ba68c8', '#fff176', '#4db6ac', '#f06292'];
const FAULT_COLOR = '#ff4d40';
const CURSOR_COLOR = '#ffffff';
/** [px] Smallest pane height (plot area and axis); more panes than fit scroll. */
export const PANE_MIN_HEIGHT = 70;
/** Most series plotted at once. */
export const PLOT_MAX_SERIES = 12;
/** uPlot's cursor sync group of the panes (one shared cursor). */
const SYNC_KEY = 'terrawheel-plots';

const QUANTITY_NAMES: Record<Quantity, string> = {
  length: 'length', angle: 'angle', force: 'force', speed: 'speed', angularSpeed: 'angular speed', impulse: 'impulse', torque: 'torque', count: 'count',
};

/** The series grouped into panes by quantity, panes in the order their first series was chosen. */
export function panesOf(defs: readonly SeriesDef[]): { quantity: Quantity; series: SeriesDef[] }[] {
  const panes: { quantity: Quantity; series: SeriesDef[] }[] = [];
  for (const d of defs.slice(0, PLOT_MAX_SERIES)) {
    const p = panes.find((x) => x.quantity === d.quantity);
    if (p) p.series.push(d);
    else panes.push({ quantity: d.quantity, series: [d] });
  }
  return panes;
}

/** The y-axis label of a pane: "force [N]". */
export function axisLabel(q: Quantity, u: DisplayUnits): string {
  const { symbol } = unitOf(u, q);
  return symbol ? `${QUANTITY_NAMES[q]} [${symbol}]` : QUANTITY_NAMES[q];
}

interface Pane {
  u: uPlot;
  quantity: Quantity;
  /** Store columns of its series. */
  cols: number[];
  factor: number;
  /** Largest value drawn per series in the last draw (test hook: spikes survive). */
  drawnMax: number[];
}

export class PlotPanes {
  readonly store = new PlotStore();
  readonly window = new TimeWindow(PLOT_WINDOW_S);
  private panes: Pane[] = [];
  private defs: SeriesDef[] = [];
  private units: DisplayUnits = { ...DEFAULT_UNITS };
  private faultTime: number | null = null;
  private cursorTime: number | null = null;
  private newest = 0;
  private range: [number, number] = [0, 0];
  /** A click on a pane while a replay is open: seek to that time [s]. */
  onSeekTime: ((t: number) => void) | null = null;

  constructor(private readonly root: HTMLElement) {
    let dragX: number | null = null;
    root.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.window.zoom(Math.exp(e.deltaY * 0.002));
    }, { passive: false });
    root.addEventListener('pointerdown', (e) => {
      if (e.button === 0 && e.shiftKey) dragX = e.clientX;
    });
    root.addEventListener('pointermove', (e) => {
      if (dragX === null) return;
      const w = Math.max(1, this.panes[0]?.u.bbox.width ?? 1);
      const oldest = this.store.count > 0 ? this.store.timeAt(0) : 0;
      this.window.pan(((e.clientX - dragX) / w) * this.window.length, this.newest, oldest);
      dragX = e.clientX;
    });
    const up = (): void => {
      dragX = null;
    };
    root.addEventListener('pointerup', up);
    root.addEventListener('pointercancel', up);
    root.addEventListener('dblclick', () => this.window.reset());
  }

  /** The series to plot; rebuilds the panes, and empties the samples when the keys change. */
  setSeries(defs: readonly SeriesDef[]): void {
    const next = defs.slice(0, PLOT_MAX_SERIES);
    const keys = next.map((d) => d.key);
    if (keys.length !== this.store.keys.length || keys.some((k, c) => k !== this.store.keys[c])) this.store.reset(keys);
    this.defs = next;
    this.rebuild();
  }

  get seriesKeys(): string[] {
    return this.defs.map((d) => d.key);
  }

  setUnits(u: DisplayUnits): void {
    if (u.length === this.units.length && u.angle === this.units.angle && u.force === this.units.force) return;
    this.units = { ...u };
    this.rebuild();
  }

  /** [s] The fault the world stopped on (a red line), or null. */
  setFault(t: number | null): void {
    this.faultTime = t;
  }

  /** [s] The replay's seek position (a white line), or null when no replay is open. */
  setCursorTime(t: number | null): void {
    this.cursorTime = t;
  }

  /** The y-axis labels of the panes, top to bottom (test hook). */
  get axisLabels(): string[] {
    return this.panes.map((p) => axisLabel(p.quantity, this.units));
  }

  /** Per plotted key, the largest value the last draw drew (SI), for the test hook. */
  get drawnMax(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const p of this.panes) p.cols.forEach((c, j) => (out[this.store.keys[c]] = p.drawnMax[j] / p.factor));
    return out;
  }

  private rebuild(): void {
    for (const p of this.panes) p.u.destroy();
    this.panes = [];
    this.root.replaceChildren();
    const groups = panesOf(this.defs);
    const width = Math.max(100, this.root.clientWidth);
    const height = this.paneHeight(groups.length);
    groups.forEach((g, k) => {
      const { factor } = unitOf(this.units, g.quantity);
      const last = k === groups.length - 1;
      const div = document.createElement('div');
      div.className = 'plot-pane';
      div.dataset.testid = 'plot-pane';
      this.root.appendChild(div);
      const opts: uPlot.Options = {
        width,
        height,
        legend: { show: true, live: true },
        cursor: { sync: { key: SYNC_KEY }, drag: { x: false, y: false } },
        scales: { x: { time: false } },
        axes: [
          { stroke: '#9aa4b2', grid: { stroke: '#2d3540', width: 1 }, ticks: { stroke: '#3a4250' }, label: last ? 'time [s]' : undefined, size: last ? 40 : 22, values: last ? undefined : () => [] },
          { stroke: '#9aa4b2', grid: { stroke: '#2d3540', width: 1 }, ticks: { stroke: '#3a4250' }, label: axisLabel(g.quantity, this.units), labelSize: 16, size: 56, values: (_u, vals) => vals.map((v) => formatAxisValue(v)) },
        ],
        series: [
          { label: 't [s]', value: (_u, v) => (v == null ? '—' : v.toFixed(3)) },
          ...g.series.map((d, j) => ({
            label: d.label,
            stroke: SERIES_COLORS[(k * 3 + j) % SERIES_COLORS.length],
            width: 1.5,
            spanGaps: false,
            points: { show: false },
            value: (_u: uPlot, v: number | null) => (v == null ? '—' : `${formatAxisValue(v)} ${unitOf(this.units, g.quantity).symbol}`.trim()),
          })),
        ],
        hooks: { draw: [(u: uPlot) => this.drawMarkers(u)] },
      };
      const u = new uPlot(opts, [[], ...g.series.map(() => [])], div);
      u.over.addEventListener('click', () => {
        const left = u.cursor.left;
        if (this.onSeekTime && this.cursorTime !== null && left !== undefined && left >= 0) this.onSeekTime(u.posToVal(left, 'x'));
      });
      this.panes.push({ u, quantity: g.quantity, cols: g.series.map((d) => this.store.keys.indexOf(d.key)), factor, drawnMax: g.series.map(() => -Infinity) });
    });
  }

  private paneHeight(n: number): number {
    const h = this.root.clientHeight || 170;
    const legend = 24; // uPlot's legend row under each pane
    return Math.max(PANE_MIN_HEIGHT, Math.floor(h / Math.max(1, n)) - legend);
  }

  private drawMarkers(u: uPlot): void {
    const ctx = u.ctx;
    const line = (t: number | null, color: string): void => {
      if (t === null) return;
      const x = u.valToPos(t, 'x', true);
      if (!(x >= u.bbox.left && x <= u.bbox.left + u.bbox.width)) return;
      ctx.save();
      ctx.strokeStyle = color;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x, u.bbox.top);
      ctx.lineTo(x, u.bbox.top + u.bbox.height);
      ctx.stroke();
      ctx.restore();
    };
    line(this.faultTime, FAULT_COLOR);
    line(this.cursorTime, CURSOR_COLOR);
  }

  /** Fits the panes to the strip's size (call from the panel loop; cheap when unchanged). */
  resize(): void {
    const width = Math.max(100, this.root.clientWidth);
    const height = this.paneHeight(this.panes.length);
    for (const p of this.panes) if (p.u.width !== width || p.u.height !== height) p.u.setSize({ width, height });
  }

  /** Redraws every pane over the window ending at `newest` [s] (the frame on screen). */
  draw(newest: number): void {
    this.newest = newest;
    const [t0, t1] = this.window.range(this.range, newest);
    for (const p of this.panes) {
      const buckets = Math.max(1, Math.round(p.u.bbox.width / (devicePixelRatio || 1)));
      const d = decimateMinMax(this.store, p.cols, t0, t1, buckets);
      const ys = d.y.map((col) => (p.factor === 1 ? col : col.map((v) => (v === null ? null : v * p.factor))));
      p.drawnMax = ys.map((col) => col.reduce<number>((m, v) => (v !== null && v > m ? v : m), -Infinity));
      p.u.batch(() => {
        p.u.setData([d.x, ...ys] as uPlot.AlignedData, true);
        p.u.setScale('x', { min: t0, max: t1 });
      });
    }
  }

  dispose(): void {
    for (const p of this.panes) p.u.destroy();
    this.panes = [];
  }
}
