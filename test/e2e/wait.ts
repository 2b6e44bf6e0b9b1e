/**
 * Waits on the app's state for the e2e tests (issue #26): a test never sleeps for a duration,
 * it waits until the test hook (renderer/test-hook.ts) shows that something happened: the
 * simulation advanced N steps, N more frames were drawn, the panels redrew, the camera settled.
 * On a loaded machine each wait simply takes longer; the only wall-clock limits are the
 * failure backstops in playwright.config.ts (a broken app fails instead of hanging).
 */
import type { Locator, Page } from '@playwright/test';

/** Waits until `n` more frames have been rendered (the render loop ran and drew them). */
export async function framesRendered(page: Page, n = 3): Promise<void> {
  const k = await page.evaluate(() => window.__terrawheel?.framesRendered ?? 0);
  await page.waitForFunction((m) => (window.__terrawheel?.framesRendered ?? 0) >= m, k + n);
}

/** Waits until `n` more frames have arrived from the worker. */
export async function framesReceived(page: Page, n = 3): Promise<void> {
  const k = await page.evaluate(() => window.__terrawheel?.framesReceived ?? 0);
  await page.waitForFunction((m) => (window.__terrawheel?.framesReceived ?? 0) >= m, k + n);
}

/**
 * Waits until the panels and the status bar have redrawn `n` more times (they redraw on their own
 * slower period, so a rendered frame does not mean a redrawn panel).
 */
export async function panelTicks(page: Page, n = 2): Promise<void> {
  const k = await page.evaluate(() => window.__terrawheel?.panelTicks ?? 0);
  await page.waitForFunction((m) => (window.__terrawheel?.panelTicks ?? 0) >= m, k + n);
}

/** Waits until the newest frame is `n` simulation steps past the one now (the sim is running). */
export async function stepsAdvance(page: Page, n: number): Promise<number> {
  const s = await page.evaluate(() => window.__terrawheel?.lastFrame?.step ?? 0);
  await page.waitForFunction((m) => (window.__terrawheel?.lastFrame?.step ?? 0) >= m, s + n);
  return s + n;
}

/** [m] Camera lag under which the view counts as still (sub-pixel at the chase distance). */
const CAMERA_STILL_M = 1e-4;

/**
 * [ms] Failure backstop of cameraSettled: a camera that keeps chasing (a lag that never falls under
 * CAMERA_STILL_M, as a fixed scenario view once did while the world ran) fails with its lag named
 * instead of hanging until the test's own timeout. A settling camera needs a few hundred frames.
 */
const CAMERA_SETTLE_BACKSTOP_MS = 180_000;

/** Waits until the chase camera has caught up with the body it follows (the view stops moving). */
export async function cameraSettled(page: Page): Promise<void> {
  try {
    await page.waitForFunction((tol) => (window.__terrawheel?.cameraLag ?? Infinity) < tol, CAMERA_STILL_M, { timeout: CAMERA_SETTLE_BACKSTOP_MS });
  } catch (e) {
    const lag = await page.evaluate(() => window.__terrawheel?.cameraLag ?? null).catch(() => null);
    const frames = await page.evaluate(() => window.__terrawheel?.framesRendered ?? null).catch(() => null);
    throw new Error(`the camera never settled: cameraLag ${lag} m, not under ${CAMERA_STILL_M} m, after ${CAMERA_SETTLE_BACKSTOP_MS / 1000} s (${frames} frames rendered; is it chasing a moving body or a fixed view it never reaches?): ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  await framesRendered(page, 2); // a frame drawn from the settled camera
}

/**
 * A toolbar control, ready to use: when a narrow window folded it into the ☰ menu
 * (renderer/app/toolbar-menu.ts), the menu is opened first. Using a control from the menu closes it.
 */
export async function toolbarControl(page: Page, selector: string): Promise<Locator> {
  const folded = (await page.locator(`#toolbar-menu ${selector}`).count()) > 0;
  if (folded && !(await page.locator('#toolbar-menu').isVisible())) await page.locator('#btn-more').click();
  return page.locator(selector);
}
