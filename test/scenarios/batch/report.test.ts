/**
 * `terrawheel report` (issue #31 item 5): the HTML report of a small real sweep holds every run,
 * a plot of each metric over each axis and the maps over the pair of axes, links each recording,
 * references nothing outside itself, and its table sorts in a real Chromium (Playwright's
 * library, launched here on the file: no web build or server needed).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from '@playwright/test';
import { runCli } from '../../../sim/node/cli';
import { runSweep } from '../../../sim/node/sweep';
import { parseCsv, readReportData } from '../../../sim/node/sweep-report';

const tmp = mkdtempSync(join(tmpdir(), 'tw-report-'));
const out = join(tmp, 'out');
let html = '';
let csv: string[][] = [];

beforeAll(async () => {
  const sweepPath = join(tmp, 'sweep.json');
  writeFileSync(sweepPath, JSON.stringify({
    format: 'terrawheel-sweep',
    version: 1,
    name: 'report test: torque x friction',
    base: resolve(__dirname, 'fixtures', 'tiny.json'),
    axes: [
      // 9 < 27 as numbers, "9" > "27" as strings: the sort must compare numbers
      { path: 'robot.maxTorque', values: [27, 9] },
      { path: 'materials.ground.friction', values: [0.3, 0.9] },
      { path: 'robot.position', values: [[-2, 0], [100, 0]] },
    ],
    sample: 'grid',
    stop: { duration: 0.5, onFault: 'stop' },
    metrics: ['distance', 'success', 'energy', 'maxTilt'],
    record: true,
  }));
  const s = await runSweep({ sweepPath, out, workers: 1 });
  expect(s.failed).toBe(4); // the start at x = 100 is off the terrain: rows with a fault
  const io = { out: () => undefined, err: () => undefined };
  expect(await runCli(['report', out], io)).toBe(0);
  html = readFileSync(join(out, 'report.html'), 'utf8');
  csv = parseCsv(readFileSync(join(out, 'results.csv'), 'utf8')).filter((r) => r.length > 1);
}, 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the report', () => {
  it('has a table row per run, with its recording linked', () => {
    const ids = csv.slice(1).map((r) => r[0]);
    expect(ids).toHaveLength(8);
    for (const id of ids) expect(html).toContain(`data-id="${id}"`);
    expect(html.match(/<tr[^>]* data-id=/g)).toHaveLength(8);
    expect(html).toContain('<a href="runs/r0000.mcap">mcap</a>');
    expect(existsSync(join(out, 'runs', 'r0000.mcap'))).toBe(true);
    expect(html).toContain('class="faulted"');
  });

  it('plots each metric over each axis and maps each pair of axes', () => {
    for (const m of ['distance', 'success', 'energy', 'maxTilt']) {
      for (const a of ['robot.maxTorque', 'materials.ground.friction', 'robot.position']) expect(html).toContain(`aria-label="${m} over ${a}"`);
    }
    expect(html).toContain('aria-label="success rate over robot.maxTorque × materials.ground.friction"');
    expect(html).toContain('aria-label="energy (mean) over materials.ground.friction × robot.position"');
    expect(html.match(/<figure class="plot heat">/g)).toHaveLength(3 * 4);
  });

  it('is self-contained: no http(s) reference, no external script, style, font or image', () => {
    expect(html).not.toMatch(/https?:/i);
    expect(html).not.toMatch(/<script[^>]+src=|<link|@import|url\(|<img|<iframe/i);
    expect(html).toMatch(/^<!doctype html>/);
  });

  it('refuses a directory without results.csv, naming it', () => {
    expect(() => readReportData(tmp, join(tmp, 'r.html'))).toThrow(/cannot read .*results\.csv .*ENOENT/);
  });

  it('parses quoted CSV fields (a fault with commas and quotes)', () => {
    expect(parseCsv('id,fault\nr0000,"a, ""b"" c"\nr0001,\n')).toEqual([['id', 'fault'], ['r0000', 'a, "b" c'], ['r0001', '']]);
  });
});

describe('sorting in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    let exe = '';
    try {
      exe = chromium.executablePath();
    } catch {
      // no bundled browser registered
    }
    if (!exe || !existsSync(exe)) exe = '/usr/bin/chromium';
    browser = await chromium.launch({ executablePath: exe, args: ['--no-sandbox'] });
  }, 300_000);
  afterAll(async () => browser?.close());

  it('a click on a header sorts by it (numbers as numbers, empty cells last), a second click reverses', async () => {
    const page = await browser.newPage();
    await page.goto(`file://${join(out, 'report.html')}`);
    const order = () => page.$$eval('#results tbody tr', (rows) => rows.map((r) => r.getAttribute('data-id')));
    const col = csv[0].indexOf('distance');
    const byDistance = csv.slice(1).map((r) => ({ id: r[0], d: r[col] === '' ? null : Number(r[col]) }));
    const expected = [...byDistance].sort((a, b) => (a.d === null ? 1 : b.d === null ? -1 : a.d - b.d)).map((r) => r.id);
    // the runs do not come out in id order by distance: sorting changes the table
    expect(expected).not.toEqual(byDistance.map((r) => r.id));
    await page.click('#results th:text-is("distance")');
    expect(await order()).toEqual(expected);
    expect(await page.getAttribute('#results th:text-is("distance")', 'aria-sort')).toBe('ascending');
    await page.click('#results th:text-is("distance")');
    expect(await page.getAttribute('#results th:text-is("distance")', 'aria-sort')).toBe('descending');
    const desc = await order();
    const withValue = byDistance.filter((r) => r.d !== null).length;
    expect(desc.slice(0, withValue)).toEqual(expected.slice(0, withValue).reverse());
    // numbers as numbers: 9 before 27
    await page.click('#results th:text-is("robot.maxTorque")');
    const torques = await page.$$eval('#results tbody tr', (rows) => rows.map((r) => (r as HTMLTableRowElement).cells[1].textContent));
    expect(torques).toEqual(['9', '9', '9', '9', '27', '27', '27', '27']);
    // back to id order
    await page.click('#results th:text-is("id")');
    expect(await order()).toEqual(csv.slice(1).map((r) => r[0]));
    await page.close();
  }, 300_000);
});
