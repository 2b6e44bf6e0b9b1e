/**
 * `terrawheel report <dir> [--out <file.html>]` (issue #31): reads a sweep's output directory
 * (results.csv, summary.json if there, runs/<id>.mcap if there) and writes the self-contained
 * HTML report of sim/batch/report-html.ts, by default `<dir>/report.html`.
 *
 * results.csv is the input, not the row files: it is the sweep's canonical table (the same bytes
 * whichever driver ran it), and its header names the axes and metrics (id, the axes, replicate,
 * seed, the metrics, steps, fault, stateHash: sim/node/sweep.ts resultsCsv).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseCsv } from '../batch/csv';
import { sweepReportHtml, type ReportData, type ReportRow } from '../batch/report-html';

export { parseCsv };
import { ScenarioError } from '../scenario/scenario-guard';

const FIXED_TAIL = ['steps', 'fault', 'stateHash'];

/** The report's data from an output directory `dir` for a report written at `reportPath`. */
export function readReportData(dir: string, reportPath: string): ReportData {
  const csvPath = join(dir, 'results.csv');
  let text: string;
  try {
    text = readFileSync(csvPath, 'utf8');
  } catch (e) {
    throw new ScenarioError(`cannot read ${csvPath} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): give the --out directory of a finished \`terrawheel sweep\``);
  }
  const [header, ...lines] = parseCsv(text).filter((r) => r.length > 1 || r[0] !== '');
  const rep = header?.indexOf('replicate') ?? -1;
  if (header === undefined || header[0] !== 'id' || rep < 1 || header[rep + 1] !== 'seed' || header.slice(-3).join() !== FIXED_TAIL.join()) {
    throw new ScenarioError(`${csvPath} is not a sweep's results.csv (its header must be id, the axes, replicate, seed, the metrics, steps, fault, stateHash)`);
  }
  const axes = header.slice(1, rep);
  const metrics = header.slice(rep + 2, header.length - 3);
  const num = (s: string): number | null => (s === '' ? null : Number(s));
  const rows: ReportRow[] = lines.map((f, k) => {
    if (f.length !== header.length) throw new ScenarioError(`${csvPath}: line ${k + 2} has ${f.length} fields, the header ${header.length}`);
    const id = f[0];
    const mcap = join(dir, 'runs', `${id}.mcap`);
    return {
      id,
      params: f.slice(1, rep),
      replicate: Number(f[rep]),
      seed: Number(f[rep + 1]),
      metrics: f.slice(rep + 2, header.length - 3).map(num),
      steps: Number(f[header.length - 3]),
      fault: f[header.length - 2],
      stateHash: f[header.length - 1],
      recording: existsSync(mcap) ? relative(dirname(reportPath), mcap).split('\\').join('/') : null,
    };
  });
  let title = `Sweep ${dir}`;
  const summary: string[] = [];
  const failed = rows.filter((r) => r.fault !== '').length;
  summary.push(`${rows.length} runs, ${failed} with a fault; ${axes.length} ${axes.length === 1 ? 'axis' : 'axes'} (${axes.join(', ') || 'none'}); ${metrics.length} metrics.`);
  try {
    const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { name?: unknown; wallSeconds?: unknown; workers?: unknown; computed?: unknown };
    if (typeof s.name === 'string' && s.name !== '') title = s.name;
    if (typeof s.wallSeconds === 'number' && typeof s.workers === 'number') summary.push(`Last run of the sweep: ${String(s.computed)} runs computed in ${s.wallSeconds.toFixed(1)} s on ${s.workers} worker(s).`);
  } catch {
    // no summary.json: the table alone
  }
  summary.push(`Every row can be re-run alone (terrawheel rerun <sweep.json> --out <dir> --id <id>) and ends in its state hash.`);
  return { title, summary, axes, metrics, rows };
}

export interface ReportResult {
  out: string;
  runs: number;
  bytes: number;
}

/** Writes the report of output directory `dir` to `out` (default `<dir>/report.html`). */
export function writeSweepReport(dir: string, out: string | null): ReportResult {
  const d = resolve(dir);
  const path = resolve(out ?? join(d, 'report.html'));
  const data = readReportData(d, path);
  const html = sweepReportHtml(data);
  writeFileSync(path, html);
  return { out: path, runs: data.rows.length, bytes: Buffer.byteLength(html) };
}
