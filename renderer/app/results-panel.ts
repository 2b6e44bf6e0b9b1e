/**
 * A sweep's results in the app (issue #31): the toolbar's "Results…" opens a sweep's output
 * directory through the Host (`host.results`: a directory dialog and validated IPC in Electron, a
 * folder picker on the web), shows its results.csv as a table over the 3D view, and a row whose
 * run was recorded (runs/<id>.mcap) opens that recording in the replay view on a click.
 */
import { parseCsv } from '../../sim/batch/csv';
import type { Host, OpenedFile, OpenedResults } from '../host/host';
import type { Banner } from './banner';
import { el, h, messageOf } from './dom';

export interface ResultsPanelDeps {
  host: Host;
  banner: Banner;
  /** Opens a recording in the replay view (app/recording-panel.ts). */
  openRecording(f: OpenedFile): void;
}

export class ResultsPanel {
  private readonly view = el<HTMLDivElement>('results-view');
  private opened: OpenedResults | null = null;

  constructor(private readonly d: ResultsPanelDeps) {
    const button = el<HTMLButtonElement>('btn-open-results');
    if (!d.host.results) {
      button.hidden = true;
      return;
    }
    button.addEventListener('click', () => void this.open());
  }

  /** Asks the Host for a results directory and shows it. */
  async open(): Promise<void> {
    const results = this.d.host.results;
    if (!results) return;
    try {
      const r = await results.openResults();
      if (r === null) return;
      this.opened = r;
      this.show(r);
    } catch (e) {
      this.d.banner.show(messageOf(e));
    }
  }

  private show(r: OpenedResults): void {
    const rows = parseCsv(r.csv).filter((row) => row.length > 1 || row[0] !== '');
    const [header, ...body] = rows;
    const recorded = new Set(r.recordings);
    this.view.replaceChildren();
    const bar = h('div', '', 'results-bar');
    bar.append(h('strong', `${r.name}: ${body.length} runs`), h('span', recorded.size > 0 ? ` (${recorded.size} recorded: click a row to replay it)` : ' (no recordings: run the sweep with "record": true, or terrawheel rerun --record)'));
    const close = h('button', 'Close', '', { type: 'button', 'data-testid': 'results-close' });
    close.addEventListener('click', () => this.hide());
    bar.append(close);
    const table = h('table', '', 'results-table', { 'data-testid': 'results-table' });
    const thead = h('thead');
    const tr = h('tr');
    for (const c of header ?? []) tr.append(h('th', c));
    thead.append(tr);
    const tbody = h('tbody');
    const faultCol = header?.indexOf('fault') ?? -1;
    for (const row of body) {
      const id = row[0];
      const line = h('tr', '', recorded.has(id) ? 'recorded' : '', { 'data-testid': `results-row-${id}` });
      if (faultCol >= 0 && row[faultCol] !== '') line.classList.add('faulted');
      for (const c of row) line.append(h('td', c));
      if (recorded.has(id)) {
        line.title = `Replay runs/${id}.mcap`;
        line.addEventListener('click', () => void this.replay(id));
      }
      tbody.append(line);
    }
    table.append(thead, tbody);
    const wrap = h('div', '', 'results-wrap');
    wrap.append(table);
    this.view.append(bar, wrap);
    this.view.hidden = false;
  }

  private async replay(id: string): Promise<void> {
    const r = this.opened;
    const results = this.d.host.results;
    if (!r || !results) return;
    try {
      const f = await results.readResultRecording(r.token, id);
      this.hide();
      this.d.openRecording(f);
    } catch (e) {
      this.d.banner.show(messageOf(e));
    }
  }

  hide(): void {
    this.view.hidden = true;
  }
}
