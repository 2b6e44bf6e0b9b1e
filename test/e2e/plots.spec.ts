/**
 * Plots as a telemetry tool (issue #30 item 2), in the web build: the worker's per-step samples
 * reach the panes for every step even though the renderer draws far fewer frames than the world
 * steps (time scale 4×: dozens of steps per drawn frame), the largest force of the window (a
 * one-step peak among hundreds of steps) is drawn, every pane has its labelled y-axis with units,
 * the hover legend reads values; in a replay, seeking back never leaves later samples (nothing
 * appended out of order). That the samples equal the recording's values step by step is checked
 * in Node (test/unit/world/plot-sampler.test.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './console';
import { panelTicks, stepsAdvance } from './wait';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/`, acceptDownloads: true, viewport: { width: 1400, height: 900 } });
const SHOTS = 'test-results/e2e/shots';

interface PlotsHook {
  bodyNames: string[];
  framesRendered: number;
  lastFrame: { step: number } | null;
  plots: { keys: string[]; axes: string[]; count: number; firstStep: number; lastStep: number; increasing: boolean; drawnMax: Record<string, number> };
  recording: { saved: { name: string } | null; replay: { step: number; firstStep: number; lastStep: number } | null };
}
const hook = (page: Page): Promise<PlotsHook> => page.evaluate(() => {
  const h = window.__terrawheel!;
  return JSON.parse(JSON.stringify({ bodyNames: h.bodyNames, framesRendered: h.framesRendered, lastFrame: h.lastFrame, plots: h.plots, recording: h.recording })) as PlotsHook;
});
const plotData = (page: Page) => page.evaluate(() => window.__terrawheel!.plotData!);

test('per-step samples in stacked panes with labelled axes; a one-step peak is drawn; a seek never appends out of order', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  const names = (await hook(page)).bodyNames;
  const wheel = names.findIndex((b) => b.startsWith('wheel:'));
  await page.locator('details[data-panel="plots"] summary').click();
  await page.locator(`[data-series="wheel:${wheel}:force"]`).check();
  const chassis = names.findIndex((b) => b.startsWith('chassis:'));
  await page.locator(`[data-series-group="body ${names[chassis].split(':')[1]}"]`).click(); // a folded group
  await page.locator(`[data-series="body:${chassis}:pitch"]`).check();
  const forceKey = `wheel:${wheel}:force`;
  await page.waitForFunction((k) => window.__terrawheel?.plots?.keys.includes(k), forceKey);

  // 4× time scale: the world takes many steps per drawn frame
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  const f0 = (await hook(page)).framesRendered, s0 = (await hook(page)).lastFrame!.step;
  await stepsAdvance(page, 1200);
  await panelTicks(page, 2);
  const h = await hook(page);
  const steps = h.lastFrame!.step - s0, frames = h.framesRendered - f0;
  expect(steps).toBeGreaterThan(2 * frames); // far fewer frames than steps
  expect(h.plots.increasing).toBe(true);
  expect(h.plots.lastStep - h.plots.firstStep + 1).toBe(h.plots.count); // every step, none missing
  expect(h.plots.count).toBeGreaterThan(1200);
  // stacked panes: one per quantity, each y-axis labelled with its unit
  expect(h.plots.axes).toEqual(expect.arrayContaining(['speed [m/s]', 'count', 'force [N]', 'angle [°]']));
  await expect(page.getByTestId('plot-pane')).toHaveCount(h.plots.axes.length);

  // the window's largest per-step force (a peak of a single step among hundreds) is what is drawn
  await page.keyboard.press('Space');
  await panelTicks(page, 3);
  const d = await plotData(page);
  const col = d.columns[d.keys.indexOf(forceKey)];
  const drawn = (await hook(page)).plots;
  const lastT = drawn.lastStep * 0.005;
  const inWindow = col.values.filter((_v, k) => col.steps[k] * 0.005 >= lastT - 10);
  const peak = Math.max(...inWindow);
  expect(drawn.drawnMax[forceKey]).toBeCloseTo(peak, 3);
  const peakAt = inWindow.indexOf(peak);
  // the peak is a single step's value: its neighbours are lower (a per-frame sampler would most likely miss it)
  expect(Math.max(inWindow[peakAt - 1] ?? -Infinity, inWindow[peakAt + 1] ?? -Infinity)).toBeLessThan(peak);

  // hover readout: the shared cursor's legend shows values on every pane
  const pane = page.getByTestId('plot-pane').first();
  const box = (await pane.locator('.u-over').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
  await expect(page.locator('#plot-panes .u-legend .u-value').nth(1)).not.toHaveText('—');
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(`${SHOTS}/plot-panes.png`, await page.locator('#panel-wrap').screenshot());

  // record, replay, seek late then early: the samples end at the seek step, in order
  await page.keyboard.press('Space');
  await page.getByTestId('btn-record').click();
  await page.waitForFunction(() => (window.__terrawheel?.recording?.recording?.status?.steps ?? 0) >= 600);
  const download = page.waitForEvent('download');
  await page.getByTestId('btn-record').click();
  await download;
  await page.waitForFunction(() => window.__terrawheel?.recording?.saved != null);
  await page.getByTestId('btn-replay').click();
  await page.waitForFunction(() => window.__terrawheel?.recording?.replay != null);
  const r = (await hook(page)).recording.replay!;
  for (const target of [r.lastStep - 20, r.firstStep + 200]) {
    const canvas = page.getByTestId('timeline-canvas');
    const cb = (await canvas.boundingBox())!;
    // scrub by clicking where the timeline puts the target (the hook confirms the step reached)
    await canvas.click({ position: { x: Math.max(1, Math.min(cb.width - 2, ((target - r.firstStep) / (r.lastStep - r.firstStep)) * cb.width)), y: cb.height / 2 } });
    await page.waitForFunction(() => {
      const h = window.__terrawheel!;
      return h.recording?.replay != null && h.plots != null && h.plots.lastStep === h.recording.replay.step && h.lastFrame?.step === h.recording.replay.step;
    });
    await panelTicks(page, 2);
    const p = (await hook(page)).plots;
    expect(p.increasing).toBe(true);
    expect(p.lastStep).toBe((await hook(page)).recording.replay!.step);
  }
  expect(problems).toEqual([]);
});
