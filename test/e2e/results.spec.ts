/**
 * A sweep's results in the web build (issue #31): "Results…" opens a sweep's output directory
 * (the web host's folder picker; Electron's directory dialog goes through the same Host
 * interface), shows results.csv as a table, and a click on a recorded row opens that run's
 * recording in the replay view. The sweep is a real one, run by the CLI before the test.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { toolbarControl } from './wait';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let tmp = '';
let out = '';

test.beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tw-results-e2e-'));
  out = join(tmp, 'sweep-out');
  const sweep = join(tmp, 'sweep.json');
  writeFileSync(sweep, JSON.stringify({
    format: 'terrawheel-sweep',
    version: 1,
    name: 'e2e results',
    base: join(ROOT, 'assets', 'scenarios', 'default.json'),
    axes: [{ path: 'robot.maxTorque', values: [10, 27] }],
    sample: 'grid',
    stop: { duration: 0.5, onFault: 'stop' },
    metrics: ['distance', 'success'],
    record: true,
  }));
  execFileSync(process.execPath, [join(ROOT, 'bin', 'terrawheel.mjs'), 'sweep', sweep, '--out', out, '--workers', '1', '--json'], { stdio: 'pipe' });
});
test.afterAll(() => rmSync(tmp, { recursive: true, force: true }));

test('a results directory opens as a table; a recorded row opens its recording in the replay view', async ({ page }) => {
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  // the replay view replays recordings of the loaded world: the sweep's base is the default
  // scenario, which the app loads at start
  const chooser = page.waitForEvent('filechooser');
  await (await toolbarControl(page, '#btn-open-results')).click();
  await (await chooser).setFiles(out);
  const table = page.getByTestId('results-table');
  await expect(table).toBeVisible();
  const csvIds = readFileSync(join(out, 'results.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]);
  expect(csvIds).toEqual(['r0000', 'r0001']);
  for (const id of csvIds) await expect(page.getByTestId(`results-row-${id}`)).toBeVisible();
  await expect(page.getByTestId('results-row-r0001')).toContainText('27');
  await page.getByTestId('results-row-r0001').click();
  await page.waitForFunction(() => window.__terrawheel?.recording?.replay?.name === 'r0001.mcap');
  await expect(page.getByTestId('results-view')).toBeHidden();
  const replay = await page.evaluate(() => window.__terrawheel?.recording?.replay ?? null);
  expect(replay?.lastStep).toBeGreaterThanOrEqual(50);
});
