/**
 * The web build end to end, through the real simulation worker, in Chromium with software GL.
 * Reads app state from the read-only test hook `window.__terrawheel` (renderer/test-hook.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { pixelStats } from './pixels';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

interface Hook {
  ready: boolean;
  paused: boolean;
  scenarioName: string | null;
  loads: number;
  error: string | null;
  framesRendered: number;
  lastFrame: { step: number; time: number; chassis: number[] } | null;
}

const hook = (page: Page): Promise<Hook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as Hook);

/** Collects console errors/warnings and page errors from the first navigation on. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true, null, { timeout: 30_000 });
  // Let a few frames render with the world in place.
  const n = (await hook(page)).framesRendered;
  await page.waitForFunction((k) => (window.__terrawheel?.framesRendered ?? 0) > k + 3, n);
}

test('loads the default scenario with no console errors and draws a non-blank 3D view', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.scenarioName).toBeTruthy();
  expect(h.lastFrame?.chassis.length).toBe(7);
  const shot = await page.locator('#view3d').screenshot();
  const stats = await pixelStats(page, shot);
  // Sky, shaded terrain and the robot give hundreds of colours; a blank or cleared canvas gives 1.
  expect(stats.distinctColors).toBeGreaterThan(50);
  await expect(page.locator('#status')).toContainText('step');
  await page.waitForTimeout(500);
  expect(problems).toEqual([]);
});

test('holding W for a second drives the robot and the rendered view follows', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const before = (await hook(page)).lastFrame!;
  const shotBefore = await page.locator('#view3d').screenshot();
  await page.keyboard.down('w');
  await page.waitForTimeout(1000);
  await page.keyboard.up('w');
  await page.waitForTimeout(300);
  const after = (await hook(page)).lastFrame!;
  expect(after.step).toBeGreaterThan(before.step);
  const moved = Math.hypot(after.chassis[0] - before.chassis[0], after.chassis[1] - before.chassis[1]);
  expect(moved).toBeGreaterThan(0.2);
  const shotAfter = await page.locator('#view3d').screenshot();
  const stats = await pixelStats(page, shotAfter, shotBefore);
  // The chase camera follows the robot, so what changes is the terrain's metre grid sliding past
  // (and the camera's lag): thin lines, a few per cent of the pixels. A frozen view gives 0.
  expect(stats.changedFraction).toBeGreaterThan(0.005);
  expect(problems).toEqual([]);
});

test('space pauses, "." steps once, space resumes', async ({ page }) => {
  await openApp(page);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await hook(page)).paused).toBe(true);
  await page.waitForTimeout(300); // let the last running frame arrive
  const s0 = (await hook(page)).lastFrame!.step;
  await page.waitForTimeout(300);
  expect((await hook(page)).lastFrame!.step).toBe(s0);
  await page.keyboard.press('.');
  await expect.poll(async () => (await hook(page)).lastFrame!.step).toBe(s0 + 1);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await hook(page)).lastFrame!.step).toBeGreaterThan(s0 + 10);
});

test('a bad terrain shows the error banner and the previous world keeps running', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const h0 = await hook(page);
  const chooser = page.waitForEvent('filechooser');
  await page.locator('#btn-open-terrain').click();
  await (await chooser).setFiles([fixture('broken-terrain.json'), fixture('broken.png')]);
  await expect(page.locator('#banner')).toBeVisible();
  await expect(page.locator('#banner-text')).toContainText('Could not load broken-terrain.json');
  const h1 = await hook(page);
  expect(h1.error).toContain('broken-terrain.json');
  expect(h1.scenarioName).toBe(h0.scenarioName);
  expect(h1.loads).toBe(h0.loads);
  const s1 = h1.lastFrame!.step;
  await expect.poll(async () => (await hook(page)).lastFrame!.step).toBeGreaterThan(s1 + 10);
  expect(problems).toEqual([]);
});

test('opening a scenario file loads it as the new world', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const chooser = page.waitForEvent('filechooser');
  await page.locator('#btn-open-scenario').click();
  await (await chooser).setFiles(fixture('ramp-scenario.json'));
  await expect.poll(async () => (await hook(page)).scenarioName, { timeout: 30_000 }).toBe('e2e ramp');
  expect((await hook(page)).error).toBeNull();
  expect(problems).toEqual([]);
});
