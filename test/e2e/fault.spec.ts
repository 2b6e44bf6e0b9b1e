/**
 * A fault pause end to end (issue #30 item 1): a robot 1.7 m from the map edge (warned of it),
 * recording, driven off the map: the world stops on a left-terrain fault and the app says so
 * everywhere (the fault box with the message, the status bar, the run buttons, the plots' timeline
 * marker, Space doing nothing); the recording holds the fault and stops growing. "Step back to
 * before the fault" saves the recording and restores a state before the faulting step, paused;
 * reversing from there runs on. The saved recording replays with the fault on its timeline. A
 * reset while recording offers to save the recording first.
 */
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { watchConsole } from './console';
import { framesRendered, panelTicks, stepsAdvance, toolbarControl } from './wait';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/`, acceptDownloads: true });

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

interface FaultHook {
  scenarioName: string | null;
  paused: boolean;
  warnings: string[];
  status: string;
  plotFaultTime: number | null;
  loads: number;
  error: string | null;
  fault: { message: string; step: number; time: number; boxShown: boolean; pauseLabel: string; pauseDisabled: boolean; stepDisabled: boolean } | null;
  lastFrame: { step: number } | null;
  recording: {
    recording: { name: string; status: { lastStep: number; events: number } | null } | null;
    saved: { name: string; bytes: number } | null;
    replay: { events: number; lastStep: number } | null;
  };
}

const hook = (page: Page): Promise<FaultHook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as FaultHook);

test('drive off the map edge: the fault pause everywhere, the recording keeps the fault, step back and continue', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  const chooser = page.waitForEvent('filechooser');
  await (await toolbarControl(page, '#btn-open-scenario')).click();
  await (await chooser).setFiles(fixture('edge-scenario.json'));
  await expect.poll(async () => (await hook(page)).scenarioName).toBe('e2e map edge');

  // warned of the edge before reaching it (standing 1.7 m from it)
  await expect.poll(async () => (await hook(page)).warnings.join('\n')).toMatch(/map edge \(x min\) 1\.\d m away/);

  await page.getByTestId('btn-record').click();
  await page.waitForFunction(() => (window.__terrawheel?.recording?.recording?.status?.lastStep ?? -1) > 20);
  await page.keyboard.down('w'); // yaw π: forward is −x, toward the edge
  await page.waitForFunction(() => window.__terrawheel?.fault != null);
  await page.keyboard.up('w');

  const f = (await hook(page)).fault!;
  expect(f.message).toMatch(/left the terrain|outside/);
  await panelTicks(page, 2);
  let h = await hook(page);
  expect(h.fault!.boxShown).toBe(true);
  await expect(page.getByTestId('fault')).toContainText(`fault at step ${f.step}`);
  await expect(page.getByTestId('fault')).toContainText(f.message);
  expect(h.fault!.pauseLabel).toContain('Fault');
  expect(h.fault!.pauseDisabled).toBe(true);
  expect(h.fault!.stepDisabled).toBe(true);
  expect(h.status).toContain(`FAULT at step ${f.step}`);
  expect(h.status).not.toMatch(/running|rtf \d/);
  expect(h.plotFaultTime).toBeCloseTo(f.time, 6);
  expect(h.warnings.join('\n')).not.toMatch(/map edge/); // the fault box speaks now, not the warning

  // Space does not pretend to pause or resume a faulted world
  const pausedBefore = h.paused;
  await page.keyboard.press('Space');
  await framesRendered(page, 3);
  h = await hook(page);
  expect(h.paused).toBe(pausedBefore);
  expect(h.fault).not.toBeNull();

  // the recording holds the fault (an event) and stops at the faulting step
  await page.waitForFunction((s) => window.__terrawheel?.recording?.recording?.status?.lastStep === s, f.step);
  await panelTicks(page, 4);
  h = await hook(page);
  expect(h.recording.recording!.status!.lastStep).toBe(f.step);
  expect(h.recording.recording!.status!.events).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('fault')).toContainText('holds the fault');

  // step back: the recording is saved (a download in the web build), the world is before the fault, paused
  const download = page.waitForEvent('download');
  await page.getByTestId('btn-step-back').click();
  expect((await download).suggestedFilename()).toMatch(/\.mcap$/);
  await page.waitForFunction(() => window.__terrawheel?.fault === null && window.__terrawheel?.recording?.saved != null);
  await page.waitForFunction((s) => (window.__terrawheel?.lastFrame?.step ?? Infinity) < s, f.step);
  // the status bar and plots redraw on their own tick, after the frame arrives
  await panelTicks(page, 2);
  h = await hook(page);
  expect(h.paused).toBe(true);
  expect(h.status).toContain('PAUSED');
  expect(h.plotFaultTime).toBeNull();
  await expect(page.getByTestId('fault')).toBeHidden();
  const back = h.lastFrame!.step;
  expect(back).toBeLessThan(f.step);

  // continue: resume and reverse away from the edge
  await page.keyboard.press('Space');
  await page.keyboard.down('s');
  await stepsAdvance(page, 200);
  await page.keyboard.up('s');
  await panelTicks(page, 2);
  h = await hook(page);
  expect(h.fault).toBeNull();
  expect(h.status).toMatch(/running/);

  // the saved recording replays with the fault on its timeline
  await page.getByTestId('btn-replay').click();
  await page.waitForFunction(() => (window.__terrawheel?.recording?.replay?.events ?? 0) >= 1);
  expect((await hook(page)).recording.replay!.lastStep).toBe(f.step);
  await page.getByTestId('timeline-close').click();

  // a reset while recording offers to save the recording first
  await page.getByTestId('btn-record').click();
  await page.waitForFunction(() => window.__terrawheel?.recording?.recording != null);
  const loads = (await hook(page)).loads;
  await page.locator('#btn-reset').click();
  await expect(page.locator('#banner')).toContainText('Reset ends the recording');
  const download2 = page.waitForEvent('download');
  await page.locator('#banner-action').click();
  expect((await download2).suggestedFilename()).toMatch(/\.mcap$/);
  await expect.poll(async () => (await hook(page)).loads).toBe(loads + 1);
  expect(problems).toEqual([]);
});
