/**
 * URDF robots in the web build (issue #14): a bundled robot scenario from the menu, drawn from its
 * URDF visuals and driven with the keyboard; a URDF with its STL mesh opened through the file
 * picker and swapped into the running scenario; a broken URDF that shows the error while the
 * previous robot keeps running. State from the test hook (renderer/test-hook.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

interface Hook {
  ready: boolean;
  scenarioName: string | null;
  bodyNames: string[];
  loads: number;
  error: string | null;
  visualBodies: number;
  warnings: string[];
  lastFrame: { step: number; speed: number; chassis: number[] } | null;
}

const hook = (page: Page): Promise<Hook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as Hook);

async function pickRobot(page: Page, files: string[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.locator('#btn-open-robot').click();
  await (await chooser).setFiles(files.map(fixture));
}

test('bundled robot from the menu, keyboard driving, Open robot… with its mesh, a broken URDF keeps the running robot', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true, null, { timeout: 30_000 });
  const loads0 = (await hook(page)).loads;

  // A bundled robot scenario from the menu: its bodies drawn from the URDF visuals.
  await page.locator('#scenario-menu').selectOption('scenarios/robot-diff-drive-caster.json');
  await expect.poll(async () => (await hook(page)).loads, { timeout: 30_000 }).toBe(loads0 + 1);
  let h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.bodyNames).toContain('chassis:base_link');
  expect(h.visualBodies).toBe(4);

  // Keyboard: S reverses (the scenario's script drives forward; the user's command overrides it).
  await page.waitForFunction(() => (window.__terrawheel?.lastFrame?.step ?? 0) > 40);
  await page.keyboard.down('KeyS');
  await expect.poll(async () => (await hook(page)).lastFrame?.speed ?? 0, { timeout: 15_000 }).toBeLessThan(-0.2);
  await page.keyboard.up('KeyS');
  await page.keyboard.down('KeyW');
  await expect.poll(async () => (await hook(page)).lastFrame?.speed ?? 0, { timeout: 15_000 }).toBeGreaterThan(0.2);
  await page.keyboard.up('KeyW');

  // Open robot…: the URDF, its STL and its Collada mesh picked together, swapped into the running scenario.
  await pickRobot(page, ['e2e-bot.urdf', 'e2e-shell.stl', 'e2e-caster.dae']);
  await expect.poll(async () => (await hook(page)).loads, { timeout: 30_000 }).toBe(loads0 + 2);
  h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.scenarioName).toBe('Differential drive with caster on the ramps');
  expect(h.bodyNames).toEqual(expect.arrayContaining(['chassis:e2e_base', 'wheel:e2e_left_wheel', 'wheel:e2e_right_wheel']));
  expect(h.visualBodies).toBe(4);
  expect(h.warnings.filter((w) => w.includes('visual'))).toEqual([]); // the STL shell and the Collada caster were drawn
  await page.keyboard.down('KeyW');
  const x0 = (await hook(page)).lastFrame?.chassis[0] ?? 0;
  await expect.poll(async () => ((await hook(page)).lastFrame?.chassis[0] ?? 0) - x0, { timeout: 15_000 }).toBeGreaterThan(0.3);
  await page.keyboard.up('KeyW');

  // A broken URDF: the banner names the joint, the swapped-in robot keeps running.
  await pickRobot(page, ['broken-robot.urdf']);
  await expect.poll(async () => (await hook(page)).error, { timeout: 15_000 }).toContain('caster_joint');
  h = await hook(page);
  expect(h.error).toContain('broken-robot.urdf');
  expect(h.loads).toBe(loads0 + 2);
  expect(h.bodyNames).toContain('chassis:e2e_base');
  const step = h.lastFrame?.step ?? 0;
  await expect.poll(async () => (await hook(page)).lastFrame?.step ?? 0).toBeGreaterThan(step + 20);
  expect(problems).toEqual([]);
});
