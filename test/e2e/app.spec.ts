/**
 * The web build end to end, through the real simulation worker, in Chromium with software GL.
 * Reads app state from the read-only test hook `window.__terrawheel` (renderer/test-hook.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { watchConsole } from './console';
import { pixelStats } from './pixels';
import { framesReceived, framesRendered, stepsAdvance, toolbarControl } from './wait';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

interface Hook {
  ready: boolean;
  framesReceived: number;
  paused: boolean;
  scenarioName: string | null;
  loads: number;
  error: string | null;
  framesRendered: number;
  lastFrame: { step: number; time: number; chassis: number[] } | null;
}

const hook = (page: Page): Promise<Hook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as Hook);


async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  await framesRendered(page, 4); // a few frames drawn with the world in place
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
  // The contact inspector lists wheel manifolds with their algorithm cases (the default world
  // drives over hills, so its wheels touch the ground); I closes and reopens it.
  await expect(page.locator('#inspector')).toBeVisible();
  await page.keyboard.press('i');
  await expect(page.locator('#inspector')).toBeHidden();
  await page.keyboard.press('i');
  await expect(page.locator('#inspector')).toBeVisible();
  const firstRow = page.locator('#inspector tr.manifold').first().locator('td');
  await expect(firstRow.nth(0)).toHaveText(/wheel_/);
  await expect(firstRow.nth(1)).toHaveText('terrain');
  await expect(firstRow.nth(2)).toHaveText(/^(flat|base|side|point|edge)(\+(flat|base|side|point|edge))*$/);
  // Keep running a while (100 steps, 10 frames drawn) so a late console error would be caught.
  await stepsAdvance(page, 100);
  await framesRendered(page, 10);
  expect(problems).toEqual([]);
});

/** Opens test/e2e/fixtures/ramp-scenario.json (no drive script: the robot stands still until driven). */
async function openRampFixture(page: Page): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await (await toolbarControl(page, '#btn-open-scenario')).click();
  await (await chooser).setFiles(fixture('ramp-scenario.json'));
  await expect.poll(async () => (await hook(page)).scenarioName).toBe('e2e ramp');
  await page.waitForFunction(() => (window.__terrawheel?.lastFrame?.step ?? 0) > 20);
}

const planar = (a: number[], b: number[]): number => Math.hypot(b[0] - a[0], b[1] - a[1]);

test('holding W drives the robot forward and the rendered view follows', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  await openRampFixture(page);
  // Baseline: without input the robot stays put over 100 steps (so the motion below is the key's doing).
  const rest0 = (await hook(page)).lastFrame!;
  await stepsAdvance(page, 100);
  const rest1 = (await hook(page)).lastFrame!;
  expect(planar(rest0.chassis, rest1.chassis)).toBeLessThan(0.02);
  const shotBefore = await page.locator('#view3d').screenshot();
  // Held until the robot has gone 0.3 m forward, however long that takes on this machine.
  await page.keyboard.down('w');
  await page.waitForFunction((x0) => ((window.__terrawheel?.lastFrame?.chassis[0] ?? -Infinity) - x0) > 0.3, rest1.chassis[0]);
  await page.keyboard.up('w');
  await stepsAdvance(page, 20);
  await framesRendered(page, 4); // the view drawn after the move
  const after = (await hook(page)).lastFrame!;
  const moved = planar(rest1.chassis, after.chassis);
  // Forward is +x in the robot frame and the fixture starts with yaw 0: mostly along x.
  expect(after.chassis[0] - rest1.chassis[0]).toBeGreaterThan(0.9 * moved);
  const shotAfter = await page.locator('#view3d').screenshot();
  const stats = await pixelStats(page, shotAfter, shotBefore);
  // The chase camera follows the robot, so what changes is the terrain's metre grid sliding past
  // (and the camera's lag): thin lines, a few per cent of the pixels. A frozen view gives 0.
  expect(stats.changedFraction).toBeGreaterThan(0.005);
  test.info().annotations.push({ type: 'measured', description: `moved ${moved.toFixed(2)} m, ${(stats.changedFraction * 100).toFixed(1)} % pixels changed` });
  expect(problems).toEqual([]);
});

test('space pauses, "." steps once, space resumes, ] and [ change the time scale', async ({ page }) => {
  await openApp(page);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await hook(page)).paused).toBe(true);
  // Frames already in flight may still land, and a loaded machine may deliver them late: settled
  // means three more frames arrived from the worker without the step changing.
  let s0 = -1;
  let f0 = 0;
  await expect
    .poll(async () => {
      const h = await hook(page);
      if (h.lastFrame!.step !== s0) {
        s0 = h.lastFrame!.step;
        f0 = h.framesReceived;
        return false;
      }
      return h.framesReceived - f0 >= 3;
    }, { intervals: [100] })
    .toBe(true);
  await framesReceived(page, 10); // ten more frames from the worker: still the same step
  expect((await hook(page)).lastFrame!.step).toBe(s0);
  await page.keyboard.press('.');
  await expect.poll(async () => (await hook(page)).lastFrame!.step).toBe(s0 + 1);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await hook(page)).lastFrame!.step).toBeGreaterThan(s0 + 10);
  await page.keyboard.press(']');
  await expect(page.locator('#status')).toContainText('running ×2');
  await page.keyboard.press('[');
  await page.keyboard.press('[');
  await expect(page.locator('#status')).toContainText('running ×0.5');
  // Space right after clicking the Pause button toggles once, not twice (no second "click" from
  // the focused button: controls.ts cancels Space's default action and main.ts blurs buttons).
  await page.locator('#btn-pause').click();
  await expect.poll(async () => (await hook(page)).paused).toBe(true);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await hook(page)).paused).toBe(false);
  await framesRendered(page, 5); // a second toggle would have landed by now (key up, blur)
  expect((await hook(page)).paused).toBe(false);
});

test('a bad terrain shows the error banner and the previous world keeps running', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const h0 = await hook(page);
  const chooser = page.waitForEvent('filechooser');
  await (await toolbarControl(page, '#btn-open-terrain')).click();
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
  const loads = (await hook(page)).loads;
  await openRampFixture(page);
  const h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.loads).toBe(loads + 1);
  expect(problems).toEqual([]);
});

test('a terrain opened as sidecar first, then its image through the banner button, loads into the current scenario', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const h0 = await hook(page);
  const repoAsset = (p: string): string => fileURLToPath(new URL(`../../assets/${p}`, import.meta.url));
  const chooser = page.waitForEvent('filechooser');
  await (await toolbarControl(page, '#btn-open-terrain')).click();
  await (await chooser).setFiles(repoAsset('terrains/ramp.json'));
  // The browser cannot read "the file next to it": the banner asks for the image by name.
  const ask = page.locator('#banner-action');
  await expect(ask).toHaveText('Select ramp.png…');
  const chooser2 = page.waitForEvent('filechooser');
  await ask.click();
  await (await chooser2).setFiles(repoAsset('terrains/ramp.png'));
  await expect.poll(async () => (await hook(page)).loads).toBe(h0.loads + 1);
  const h1 = await hook(page);
  expect(h1.error).toBeNull();
  expect(h1.scenarioName).toBe(h0.scenarioName);
  await expect(page.locator('#world-name')).toContainText('601×481');
  expect(problems).toEqual([]);
});

test('with an Electron-style window.terraWheel bridge the app uses it, and menu commands open files', async ({ page }) => {
  const problems = watchConsole(page);
  const scenario = readFileSync(fixture('ramp-scenario.json'), 'utf8');
  // A stand-in for electron/preload.ts: same HostBridge shape, backed by the static server.
  await page.addInitScript((scenarioText: string) => {
    const calls: string[] = [];
    let menu: ((cmd: unknown) => void) | null = null;
    const bytes = async (url: string): Promise<Uint8Array> => new Uint8Array(await (await fetch(url)).arrayBuffer());
    const w = window as unknown as Record<string, unknown>;
    w.__bridgeCalls = calls;
    w.__sendMenu = (cmd: unknown) => menu?.(cmd);
    w.terraWheel = {
      openFile: async (kind: string) => {
        calls.push(`openFile:${kind}`);
        return { kind, name: 'ramp-scenario.json', bytes: new TextEncoder().encode(scenarioText), token: 't1' };
      },
      openRecent: async (index: number) => {
        calls.push(`openRecent:${index}`);
        throw new Error('recent file 0 no longer exists');
      },
      readRelated: async () => {
        throw new Error('not used');
      },
      saveFile: async () => null,
      listAssets: async () => {
        calls.push('listAssets');
        return (await fetch('assets-manifest.json')).json();
      },
      readAsset: async (p: string) => {
        calls.push(`readAsset:${p}`);
        return bytes(`assets/${p}`);
      },
      getSettings: async () => ({ recentFiles: [], showContacts: false }),
      setSettings: async (patch: object) => ({ recentFiles: [], showContacts: false, ...patch }),
      onMenuCommand: (l: (cmd: unknown) => void) => {
        menu = l;
        return () => (menu = null);
      },
    };
  }, scenario);
  await openApp(page);
  expect(await page.evaluate(() => window.__terrawheel?.host)).toBe('electron');
  const calls = (): Promise<string[]> => page.evaluate(() => (window as unknown as { __bridgeCalls: string[] }).__bridgeCalls.slice());
  expect(await calls()).toContain('readAsset:scenarios/default.json');
  // Settings come from the bridge: contacts start hidden.
  await expect(page.locator('#chk-contacts')).not.toBeChecked();
  await page.evaluate(() => (window as unknown as { __sendMenu: (c: unknown) => void }).__sendMenu({ type: 'open', kind: 'scenario' }));
  await expect.poll(async () => (await hook(page)).scenarioName).toBe('e2e ramp');
  await page.evaluate(() => (window as unknown as { __sendMenu: (c: unknown) => void }).__sendMenu({ type: 'open-recent', index: 0 }));
  await expect(page.locator('#banner-text')).toContainText('recent file 0 no longer exists');
  expect(await calls()).toContain('openRecent:0');
  expect((await hook(page)).scenarioName).toBe('e2e ramp'); // the failed open changed nothing
  expect(problems).toEqual([]);
});

test('dismissing the "select the image" banner cancels that load cleanly; the next load works', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const chooser = page.waitForEvent('filechooser');
  await (await toolbarControl(page, '#btn-open-terrain')).click();
  await (await chooser).setFiles(fileURLToPath(new URL('../../assets/terrains/ramp.json', import.meta.url)));
  await expect(page.locator('#banner-action')).toHaveText('Select ramp.png…');
  await page.locator('#banner-close').click();
  await expect(page.locator('#banner-text')).toContainText('Could not load ramp.json');
  await expect(page.locator('#banner-text')).toContainText('ramp.png');
  await openRampFixture(page); // not stuck in "a world is already loading"
  expect((await hook(page)).error).toBeNull();
  expect(problems).toEqual([]);
});
