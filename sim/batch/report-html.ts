/**
 * The HTML report of a sweep (`terrawheel report <dir>`, issue #31): one self-contained page, no
 * external scripts, styles, fonts or images (it opens from a file, offline, years later):
 *   - the summary (runs, faults, wall time) and the results table, sortable by any column (a
 *     click on a header; numbers sort as numbers, empty cells last; inline script);
 *   - per metric and axis, a plot of the metric over the axis (every run a dot, faulted runs a
 *     cross, the mean per axis value a line), inline SVG;
 *   - per pair of axes and metric, a heat map of the metric's mean over the two axes (for
 *     `success`: the success map, the share of runs that succeeded), inline SVG.
 * Pure: data in, a string out (sim/node/sweep-report.ts reads the output directory).
 */

/** One run as the report shows it (a results.csv row). */
export interface ReportRow {
  id: string;
  /** Axis values as results.csv writes them (numbers, strings, JSON). */
  params: string[];
  replicate: number;
  seed: number;
  /** Per metric, in `metrics` order (null: empty cell). */
  metrics: (number | null)[];
  steps: number;
  fault: string;
  stateHash: string;
  /** Path of the run's recording relative to the report, or null. */
  recording: string | null;
}

export interface ReportData {
  title: string;
  /** Lines of the summary ("18 runs, 0 with a fault, 41.4 s on 2 workers"). */
  summary: string[];
  axes: string[];
  metrics: string[];
  rows: ReportRow[];
}

/** Most categories an axis shows on its own in a heat map; a numeric axis with more is binned. */
export const HEATMAP_MAX_CATEGORIES = 10;
/** Bins of a numeric axis with more than HEATMAP_MAX_CATEGORIES distinct values. */
export const HEATMAP_BINS = 8;

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A number for a label: 4 significant digits, shortest form. */
function label(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(4)));
}

const asNumber = (s: string): number | null => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : null);

/** An axis's values: numeric (a linear scale) or categories (in first-seen order, numbers sorted). */
interface AxisScale {
  numeric: boolean;
  /** Distinct values as written, sorted (numbers by value). */
  values: string[];
  min: number;
  max: number;
}

function axisScale(values: string[]): AxisScale {
  const distinct = [...new Set(values)];
  const nums = distinct.map(asNumber);
  const numeric = nums.every((x) => x !== null);
  if (numeric) {
    const order = distinct.map((v, k) => [v, nums[k] as number] as const).sort((a, b) => a[1] - b[1]);
    return { numeric, values: order.map((o) => o[0]), min: order[0]?.[1] ?? 0, max: order[order.length - 1]?.[1] ?? 1 };
  }
  return { numeric, values: distinct, min: 0, max: Math.max(0, distinct.length - 1) };
}

/** Colour of t in [0, 1] on a blue → green → yellow ramp (readable with dark text). */
function ramp(t: number): string {
  const c = Math.max(0, Math.min(1, t));
  const hue = 230 - 170 * c;
  return `hsl(${hue.toFixed(0)}, 70%, ${(62 + 10 * c).toFixed(0)}%)`;
}

/** Colour of a success rate: red (0) → amber → green (1). */
function successColour(t: number): string {
  const c = Math.max(0, Math.min(1, t));
  return `hsl(${(120 * c).toFixed(0)}, 65%, 62%)`;
}

const W = 360, H = 230, ML = 58, MR = 12, MT = 26, MB = 46;

/** The metric over one axis: dots per run, crosses for faulted runs, the mean per axis value. */
export function metricOverAxisSvg(data: ReportData, axis: number, metric: number): string {
  const xs = data.rows.map((r) => r.params[axis]);
  const sc = axisScale(xs);
  const pts = data.rows.map((r) => ({ x: r.params[axis], y: r.metrics[metric], fault: r.fault !== '' })).filter((p): p is { x: string; y: number; fault: boolean } => p.y !== null && Number.isFinite(p.y));
  const title = `${data.metrics[metric]} over ${data.axes[axis]}`;
  if (pts.length === 0) return `<figure class="plot"><figcaption>${esc(title)}</figcaption><p class="empty">no values</p></figure>`;
  let lo = Math.min(...pts.map((p) => p.y)), hi = Math.max(...pts.map((p) => p.y));
  if (hi - lo < 1e-12) {
    lo -= 0.5 * (Math.abs(lo) || 1);
    hi += 0.5 * (Math.abs(hi) || 1);
  }
  const pw = W - ML - MR, ph = H - MT - MB;
  const xOf = (v: string): number => {
    if (sc.numeric) {
      const n = Number(v);
      return ML + (sc.max > sc.min ? ((n - sc.min) / (sc.max - sc.min)) * pw : pw / 2);
    }
    const k = sc.values.indexOf(v);
    return ML + (sc.values.length > 1 ? (k / (sc.values.length - 1)) * pw : pw / 2);
  };
  const yOf = (y: number): number => MT + ph - ((y - lo) / (hi - lo)) * ph;
  const parts: string[] = [];
  parts.push(`<line x1="${ML}" y1="${MT + ph}" x2="${ML + pw}" y2="${MT + ph}" class="ax"/><line x1="${ML}" y1="${MT}" x2="${ML}" y2="${MT + ph}" class="ax"/>`);
  for (const y of [lo, (lo + hi) / 2, hi]) parts.push(`<text x="${ML - 4}" y="${yOf(y) + 4}" text-anchor="end">${esc(label(y))}</text>`);
  const ticks = sc.values.length <= 8 ? sc.values : [sc.values[0], sc.values[Math.floor(sc.values.length / 2)], sc.values[sc.values.length - 1]];
  for (const v of ticks) parts.push(`<text x="${xOf(v).toFixed(1)}" y="${MT + ph + 16}" text-anchor="middle">${esc(v.length > 14 ? v.slice(0, 13) + '…' : v)}</text>`);
  parts.push(`<text x="${ML + pw / 2}" y="${H - 6}" text-anchor="middle" class="name">${esc(data.axes[axis])}</text>`);
  // the mean per distinct axis value
  const means = sc.values.map((v) => {
    const ys = pts.filter((p) => p.x === v).map((p) => p.y);
    return ys.length > 0 ? { v, m: ys.reduce((s, y) => s + y, 0) / ys.length } : null;
  }).filter((m): m is { v: string; m: number } => m !== null);
  if (means.length > 1) parts.push(`<polyline class="mean" points="${means.map((m) => `${xOf(m.v).toFixed(1)},${yOf(m.m).toFixed(1)}`).join(' ')}"/>`);
  for (const p of pts) {
    const x = xOf(p.x), y = yOf(p.y);
    parts.push(p.fault
      ? `<path class="fault" d="M${(x - 3).toFixed(1)} ${(y - 3).toFixed(1)}l6 6m0 -6l-6 6"/>`
      : `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="2.5" class="dot"/>`);
  }
  return `<figure class="plot"><figcaption>${esc(title)}</figcaption><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(title)}">${parts.join('')}</svg></figure>`;
}

/** An axis's heat-map categories: its distinct values, or HEATMAP_BINS bins of a wide numeric axis. */
function heatCategories(values: string[]): { labels: string[]; of: (v: string) => number } {
  const sc = axisScale(values);
  if (!sc.numeric || sc.values.length <= HEATMAP_MAX_CATEGORIES) return { labels: sc.values, of: (v) => sc.values.indexOf(v) };
  const width = (sc.max - sc.min) / HEATMAP_BINS;
  const labels = Array.from({ length: HEATMAP_BINS }, (_, k) => `${label(sc.min + k * width)}–${label(sc.min + (k + 1) * width)}`);
  return { labels, of: (v) => Math.min(HEATMAP_BINS - 1, Math.floor((Number(v) - sc.min) / width)) };
}

/** The mean of a metric over two axes (success: the success map). */
export function heatMapSvg(data: ReportData, ax: number, ay: number, metric: number): string {
  const cx = heatCategories(data.rows.map((r) => r.params[ax]));
  const cy = heatCategories(data.rows.map((r) => r.params[ay]));
  const nx = cx.labels.length, ny = cy.labels.length;
  const sum = new Float64Array(nx * ny), count = new Float64Array(nx * ny);
  for (const r of data.rows) {
    const y = r.metrics[metric];
    if (y === null || !Number.isFinite(y)) continue;
    const k = cy.of(r.params[ay]) * nx + cx.of(r.params[ax]);
    sum[k] += y;
    count[k]++;
  }
  const isSuccess = data.metrics[metric] === 'success';
  const means: number[] = [];
  for (let k = 0; k < nx * ny; k++) if (count[k] > 0) means.push(sum[k] / count[k]);
  const lo = isSuccess ? 0 : Math.min(...means), hi = isSuccess ? 1 : Math.max(...means);
  const title = isSuccess ? `success rate over ${data.axes[ax]} × ${data.axes[ay]}` : `${data.metrics[metric]} (mean) over ${data.axes[ax]} × ${data.axes[ay]}`;
  const cell = Math.max(28, Math.min(64, Math.floor(300 / Math.max(nx, ny))));
  const left = 96, top = 8, bottom = 40;
  const w = left + nx * cell + 8, h = top + ny * cell + bottom;
  const parts: string[] = [];
  for (let j = 0; j < ny; j++) {
    // the first category at the bottom
    const y = top + (ny - 1 - j) * cell;
    parts.push(`<text x="${left - 4}" y="${y + cell / 2 + 4}" text-anchor="end">${esc(cy.labels[j].length > 14 ? cy.labels[j].slice(0, 13) + '…' : cy.labels[j])}</text>`);
    for (let i = 0; i < nx; i++) {
      const k = j * nx + i, x = left + i * cell;
      if (count[k] === 0) {
        parts.push(`<rect x="${x}" y="${y}" width="${cell}" height="${cell}" class="none"/>`);
        continue;
      }
      const m = sum[k] / count[k];
      const t = hi > lo ? (m - lo) / (hi - lo) : 0.5;
      parts.push(`<rect x="${x}" y="${y}" width="${cell}" height="${cell}" fill="${isSuccess ? successColour(m) : ramp(t)}"><title>${esc(`${data.axes[ax]} = ${cx.labels[i]}, ${data.axes[ay]} = ${cy.labels[j]}: ${label(m)} (${count[k]} runs)`)}</title></rect>`);
      parts.push(`<text x="${x + cell / 2}" y="${y + cell / 2 + 4}" text-anchor="middle" class="v">${esc(isSuccess ? `${Math.round(m * 100)}%` : label(m))}</text>`);
    }
  }
  for (let i = 0; i < nx; i++) parts.push(`<text x="${left + i * cell + cell / 2}" y="${top + ny * cell + 14}" text-anchor="middle">${esc(cx.labels[i].length > 8 ? cx.labels[i].slice(0, 7) + '…' : cx.labels[i])}</text>`);
  parts.push(`<text x="${left + (nx * cell) / 2}" y="${h - 6}" text-anchor="middle" class="name">${esc(data.axes[ax])}</text>`);
  return `<figure class="plot heat"><figcaption>${esc(title)}</figcaption><svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(title)}">${parts.join('')}</svg><div class="yname">rows: ${esc(data.axes[ay])}</div></figure>`;
}

/** The results table (sortable by the inline script: data-v holds a cell's sort value). */
function table(data: ReportData): string {
  const head = ['id', ...data.axes, 'replicate', 'seed', ...data.metrics, 'steps', 'fault', 'stateHash', 'recording'];
  const num = (x: number | null): string => (x === null ? '<td data-v=""></td>' : `<td data-v="${x}">${esc(label(x))}</td>`);
  const body = data.rows.map((r) => {
    const cells = [
      `<td data-v="${esc(r.id)}">${esc(r.id)}</td>`,
      ...r.params.map((p) => (asNumber(p) !== null ? `<td data-v="${Number(p)}">${esc(p)}</td>` : `<td data-v="${esc(p)}">${esc(p)}</td>`)),
      num(r.replicate), num(r.seed), ...r.metrics.map(num), num(r.steps),
      `<td data-v="${esc(r.fault)}" class="f">${esc(r.fault)}</td>`,
      `<td data-v="${esc(r.stateHash)}"><code>${esc(r.stateHash)}</code></td>`,
      r.recording === null ? '<td data-v=""></td>' : `<td data-v="${esc(r.recording)}"><a href="${esc(r.recording)}">mcap</a></td>`,
    ];
    return `<tr${r.fault !== '' ? ' class="faulted"' : ''} data-id="${esc(r.id)}">${cells.join('')}</tr>`;
  });
  return `<table class="sortable" id="results"><thead><tr>${head.map((h, k) => `<th data-col="${k}" aria-sort="none" tabindex="0">${esc(h)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

/** The inline script: click (or Enter on) a header to sort by it; again to reverse. */
const SORT_SCRIPT = `
(function () {
  var table = document.getElementById('results');
  var heads = table.tHead.rows[0].cells;
  function key(row, col) { return row.cells[col].getAttribute('data-v'); }
  function sortBy(col) {
    var th = heads[col];
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    for (var k = 0; k < heads.length; k++) heads[k].setAttribute('aria-sort', 'none');
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var numeric = rows.every(function (r) { var v = key(r, col); return v === '' || isFinite(Number(v)); });
    rows.sort(function (a, b) {
      var x = key(a, col), y = key(b, col);
      if (x === '' && y === '') return 0;
      if (x === '') return 1;
      if (y === '') return -1;
      var c = numeric ? Number(x) - Number(y) : (x < y ? -1 : x > y ? 1 : 0);
      return c * dir;
    });
    for (var i = 0; i < rows.length; i++) body.appendChild(rows[i]);
  }
  for (var k = 0; k < heads.length; k++) {
    (function (col) {
      heads[col].addEventListener('click', function () { sortBy(col); });
      heads[col].addEventListener('keydown', function (e) { if (e.key === 'Enter') sortBy(col); });
    })(k);
  }
})();
`;

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1f24; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 12px; }
th, td { border: 1px solid #d0d7de; padding: 2px 6px; text-align: right; white-space: nowrap; }
th { background: #f3f5f7; cursor: pointer; user-select: none; position: sticky; top: 0; }
th[aria-sort="ascending"]::after { content: " \\25B2"; } th[aria-sort="descending"]::after { content: " \\25BC"; }
td.f { text-align: left; max-width: 28em; overflow: hidden; text-overflow: ellipsis; color: #b42318; }
tr.faulted td { background: #fff4f2; }
.wrap { overflow: auto; max-height: 70vh; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; }
figure.plot { margin: 0; border: 1px solid #e1e4e8; padding: 6px; }
figcaption { font-weight: 600; font-size: 12px; }
svg text { font-size: 10px; fill: #1b1f24; } svg text.name { font-size: 11px; font-weight: 600; } svg text.v { font-size: 10px; }
.ax { stroke: #57606a; } .dot { fill: #0969da; fill-opacity: 0.7; } .fault { stroke: #cf222e; stroke-width: 1.5; fill: none; }
.mean { fill: none; stroke: #0969da; stroke-width: 1.5; stroke-opacity: 0.6; } rect.none { fill: #eee; }
.yname { font-size: 11px; color: #57606a; }
`;

/** The whole page. */
export function sweepReportHtml(data: ReportData): string {
  const plots: string[] = [];
  for (let m = 0; m < data.metrics.length; m++) for (let a = 0; a < data.axes.length; a++) plots.push(metricOverAxisSvg(data, a, m));
  const heat: string[] = [];
  const order = data.metrics.includes('success') ? [data.metrics.indexOf('success'), ...data.metrics.map((_, k) => k).filter((k) => data.metrics[k] !== 'success')] : data.metrics.map((_, k) => k);
  for (let a = 0; a < data.axes.length; a++) for (let b = a + 1; b < data.axes.length; b++) for (const m of order) heat.push(heatMapSvg(data, a, b, m));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(data.title)}</title><style>${STYLE}</style></head>
<body>
<h1>${esc(data.title)}</h1>
${data.summary.map((l) => `<p>${esc(l)}</p>`).join('\n')}
<h2>Runs</h2>
<p>Click a column's header to sort by it (again to reverse).</p>
<div class="wrap">${table(data)}</div>
${heat.length > 0 ? `<h2>Maps over pairs of axes</h2><div class="plots">${heat.join('\n')}</div>` : ''}
${plots.length > 0 ? `<h2>Each metric over each axis</h2><p>Dots: runs; crosses: runs that faulted; line: the mean per axis value.</p><div class="plots">${plots.join('\n')}</div>` : ''}
<script>${SORT_SCRIPT}</script>
</body></html>
`;
}
