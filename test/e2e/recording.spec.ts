/**
 * Recording in the web build: record 5 s of the default world, stop (saved as a download), replay
 * it, seek to the middle on the timeline: the robot's pose drawn on screen and in the sim equals
 * the pose the file holds for that step, and a wheel selected before the seek stays selected with
 * its contacts highlighted; branch from there and drive: the new recording names
 * its parent and the branch step.
 */
import { expect, test, type Page } from '@playwright/test';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/`, acceptDownloads: true });

interface RecHook {
  recording: {
    recording: { name: string; bytes: number; status: { simSeconds: number; steps: number } | null } | null;
    saved: { name: string; bytes: number } | null;
    replay: { name: string; firstStep: number; lastStep: number; step: number; running: boolean; parent: { recording: string; step: number } | null } | null;
    recordedChassis: number[] | null;
    verify: { verdict: string; message: string } | null;
  };
  lastFrame: { step: number; chassis: number[] } | null;
  drawnChassis: number[];
  error: string | null;
  framesRendered: number;
  bodyNames: string[];
  selection: string | null;
  highlightedContacts: number;
}

const hook = (page: Page): Promise<RecHook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as RecHook);

test('record 5 s, replay, seek to the middle (pose on screen = sim = file), branch and drive', async ({ page }) => {
  // the encoder runs in its own worker (a fallback to the simulation thread says so on the console)
  const encoderFallbacks: string[] = [];
  page.on('console', (m) => {
    if (m.text().startsWith('recording: the encoder thread could not start')) encoderFallbacks.push(m.text());
  });
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);

  await page.getByTestId('btn-record').click();
  await page.waitForFunction(() => (window.__terrawheel?.recording?.recording?.status?.simSeconds ?? 0) >= 5);
  const download = page.waitForEvent('download');
  await page.getByTestId('btn-record').click();
  expect((await download).suggestedFilename()).toMatch(/\.mcap$/);
  await page.waitForFunction(() => window.__terrawheel?.recording?.saved !== null);
  const saved = (await hook(page)).recording.saved!;
  expect(saved.bytes).toBeGreaterThan(10_000);

  await page.getByTestId('btn-replay').click();
  await page.waitForFunction(() => window.__terrawheel?.recording?.replay !== null);
  await expect(page.getByTestId('timeline')).toBeVisible();
  const r0 = (await hook(page)).recording.replay!;
  expect(r0.lastStep - r0.firstStep).toBeGreaterThanOrEqual(1000); // ≥ 5 s at 200 Hz

  // A wheel selected in the entity tree stays selected through the seek, its contacts highlighted.
  const names = (await hook(page)).bodyNames;
  const wheel = names.findIndex((b) => b.startsWith('wheel:'));
  await page.locator(`[data-entity="body:${wheel}"]`).click();
  await expect.poll(async () => (await hook(page)).selection).toBe(`body ${names[wheel].split(':')[1]}`);

  // Seek to the middle: click the middle of the timeline bar.
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const mid = (r0.firstStep + r0.lastStep) / 2;
  await page.waitForFunction((m) => {
    const r = window.__terrawheel?.recording;
    return r?.replay !== null && Math.abs((r?.replay?.step ?? 0) - m) < 30 && r?.recordedChassis !== null && window.__terrawheel?.lastFrame?.step === r?.replay?.step;
  }, mid);
  // a few rendered frames at the seek point
  const n = (await hook(page)).framesRendered;
  await page.waitForFunction((k) => (window.__terrawheel?.framesRendered ?? 0) > k + 3, n);
  const h = await hook(page);
  const seekStep = h.recording.replay!.step;
  expect(h.lastFrame!.step).toBe(seekStep);
  expect(h.recording.recordedChassis!.length).toBe(7);
  expect(h.lastFrame!.chassis).toEqual(h.recording.recordedChassis);
  expect(h.drawnChassis).toEqual(h.recording.recordedChassis);
  expect(h.selection).toBe(`body ${names[wheel].split(':')[1]}`);
  expect(h.highlightedContacts).toBeGreaterThan(0);

  // Branch from here and drive forward for a second.
  await page.getByTestId('timeline-branch').click();
  await page.waitForFunction(() => window.__terrawheel?.recording?.recording !== null);
  await page.keyboard.down('w');
  await page.waitForFunction((s) => (window.__terrawheel?.lastFrame?.step ?? 0) > s + 200, seekStep);
  await page.keyboard.up('w');
  const download2 = page.waitForEvent('download');
  await page.getByTestId('btn-record').click();
  await download2;
  await page.waitForFunction(() => window.__terrawheel?.recording?.recording === null);
  await page.getByTestId('btn-replay').click();
  await page.waitForFunction((s) => window.__terrawheel?.recording?.replay?.parent?.step === s, seekStep);
  expect((await hook(page)).error).toBeNull();
  expect(encoderFallbacks).toEqual([]);
});
