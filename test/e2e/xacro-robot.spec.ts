/**
 * xacro in the web app (issue #27): a bundled xacro robot (the Clearpath Husky) from the scenario
 * menu, expanded in the page, with no warning, driven with the keyboard; a xacro robot and the
 * file it includes picked together through Open robot…, swapped into the running scenario.
 * State from the test hook (renderer/test-hook.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { toolbarControl } from './wait';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

interface Hook {
  ready: boolean;
  bodyNames: string[];
  loads: number;
  error: string | null;
  warnings: string[];
  lastFrame: { step: number; speed: number; chassis: number[] } | null;
}

const hook = (page: Page): Promise<Hook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as Hook);

test('a bundled xacro robot from the menu drives; a picked xacro robot with its include is swapped in', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  const loads0 = (await hook(page)).loads;

  await page.locator('#scenario-menu').selectOption('scenarios/robot-husky.json');
  await expect.poll(async () => (await hook(page)).loads).toBe(loads0 + 1);
  let h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.bodyNames).toEqual(expect.arrayContaining(['chassis:inertial_link']));
  await page.waitForFunction(() => (window.__terrawheel?.lastFrame?.step ?? 0) > 40);
  await page.keyboard.down('KeyW');
  await expect.poll(async () => (await hook(page)).lastFrame?.speed ?? 0).toBeGreaterThan(0.2);
  await page.keyboard.up('KeyW');
  // no warning (the count of speculative contacts not drawn is a display note, not a warning about the robot)
  expect((await hook(page)).warnings.filter((w) => !/speculative contacts? not shown/.test(w))).toEqual([]);

  const chooser = page.waitForEvent('filechooser');
  await (await toolbarControl(page, '#btn-open-robot')).click();
  await (await chooser).setFiles([fixture('xacro-bot.urdf.xacro'), fixture('xacro-bot-wheel.xacro')]);
  await expect.poll(async () => (await hook(page)).loads).toBe(loads0 + 2);
  h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.bodyNames).toEqual(expect.arrayContaining(['chassis:xb_base']));
  expect(h.bodyNames.filter((n) => n.includes('_wheel')).length).toBe(2);
  expect(problems).toEqual([]);
});
