/**
 * URDF robots in the web build (issue #14): a bundled robot scenario from the menu, drawn from its
 * URDF visuals and driven with the keyboard; a URDF with its STL mesh opened through the file
 * picker and swapped into the running scenario; a broken URDF that shows the error while the
 * previous robot keeps running. State from the test hook (renderer/test-hook.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
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
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  const loads0 = (await hook(page)).loads;

  // A bundled robot scenario from the menu: its bodies drawn from the URDF visuals.
  await page.locator('#scenario-menu').selectOption('scenarios/robot-diff-drive-caster.json');
  await expect.poll(async () => (await hook(page)).loads).toBe(loads0 + 1);
  let h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.bodyNames).toContain('chassis:base_link');
  expect(h.visualBodies).toBe(4);

  // Keyboard: S reverses (the scenario's script drives forward; the user's command overrides it).
  await page.waitForFunction(() => (window.__terrawheel?.lastFrame?.step ?? 0) > 40);
  await page.keyboard.down('KeyS');
  await expect.poll(async () => (await hook(page)).lastFrame?.speed ?? 0).toBeLessThan(-0.2);
  await page.keyboard.up('KeyS');
  await page.keyboard.down('KeyW');
  await expect.poll(async () => (await hook(page)).lastFrame?.speed ?? 0).toBeGreaterThan(0.2);
  await page.keyboard.up('KeyW');

  // Open robot…: the URDF, its STL and its Collada mesh picked together, swapped into the running scenario.
  await pickRobot(page, ['e2e-bot.urdf', 'e2e-shell.stl', 'e2e-caster.dae']);
  await expect.poll(async () => (await hook(page)).loads).toBe(loads0 + 2);
  h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.scenarioName).toBe('Differential drive with caster on the ramps');
  // the scenario menu names the running world, not the bundled scenario it came from (issue #30)
  await expect(page.locator('#scenario-menu option:checked')).toHaveText('Differential drive with caster on the ramps (e2e-bot.urdf)');
  expect(h.bodyNames).toEqual(expect.arrayContaining(['chassis:e2e_base', 'wheel:e2e_left_wheel', 'wheel:e2e_right_wheel']));
  expect(h.visualBodies).toBe(4);
  expect(h.warnings.filter((w) => w.includes('visual'))).toEqual([]); // the STL shell and the Collada caster were drawn
  await page.keyboard.down('KeyW');
  const x0 = (await hook(page)).lastFrame?.chassis[0] ?? 0;
  await expect.poll(async () => ((await hook(page)).lastFrame?.chassis[0] ?? 0) - x0).toBeGreaterThan(0.3);
  await page.keyboard.up('KeyW');

  // A broken URDF: the banner names the joint, the swapped-in robot keeps running.
  await pickRobot(page, ['broken-robot.urdf']);
  await expect.poll(async () => (await hook(page)).error).toContain('caster_joint');
  h = await hook(page);
  expect(h.error).toContain('broken-robot.urdf');
  expect(h.loads).toBe(loads0 + 2);
  expect(h.bodyNames).toContain('chassis:e2e_base');
  const step = h.lastFrame?.step ?? 0;
  await expect.poll(async () => (await hook(page)).lastFrame?.step ?? 0).toBeGreaterThan(step + 20);
  expect(problems).toEqual([]);
});

test('desktop: File ▸ Open Robot… through an Electron-style bridge swaps in the URDF with the meshes main read', async ({ page }) => {
  const files = {
    urdf: readFileSync(fixture('e2e-bot.urdf'), 'utf8'),
    shell: readFileSync(fixture('e2e-shell.stl'), 'utf8'),
    caster: readFileSync(fixture('e2e-caster.dae'), 'utf8'),
  };
  // A stand-in for electron/preload.ts (HostBridge), backed by the static server for assets.
  await page.addInitScript((f: { urdf: string; shell: string; caster: string }) => {
    const calls: string[] = [];
    let menu: ((cmd: unknown) => void) | null = null;
    const enc = new TextEncoder();
    const w = window as unknown as Record<string, unknown>;
    w.__bridgeCalls = calls;
    w.__sendMenu = (cmd: unknown) => menu?.(cmd);
    w.terraWheel = {
      openFile: async (kind: string) => {
        calls.push(`openFile:${kind}`);
        return { kind, name: 'e2e-bot.urdf', bytes: enc.encode(f.urdf), token: 't1', related: { 'meshes/e2e-shell.stl': enc.encode(f.shell), 'meshes/e2e-caster.dae': enc.encode(f.caster) } };
      },
      readRelated: async (_t: string, name: string) => {
        calls.push(`readRelated:${name}`);
        throw new Error('not used');
      },
      saveFile: async () => null,
      listAssets: async () => (await fetch('assets-manifest.json')).json(),
      readAsset: async (p: string) => new Uint8Array(await (await fetch(`assets/${p}`)).arrayBuffer()),
      getSettings: async () => ({ recentFiles: [], showContacts: true }),
      setSettings: async (patch: object) => ({ recentFiles: [], showContacts: true, ...patch }),
      onMenuCommand: (l: (cmd: unknown) => void) => {
        menu = l;
        return () => (menu = null);
      },
    };
  }, files);
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  const before = await hook(page);
  expect(before.visualBodies).toBe(0); // the default world's built-in rover: collision shapes
  await page.evaluate(() => (window as unknown as { __sendMenu: (c: unknown) => void }).__sendMenu({ type: 'open', kind: 'robot' }));
  await expect.poll(async () => (await hook(page)).loads).toBe(before.loads + 1);
  const h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.scenarioName).toBe(before.scenarioName);
  expect(h.bodyNames).toContain('chassis:e2e_base');
  expect(h.visualBodies).toBe(4);
  expect(h.warnings.filter((w) => w.includes('visual'))).toEqual([]);
  const calls = await page.evaluate(() => (window as unknown as { __bridgeCalls: string[] }).__bridgeCalls.slice());
  expect(calls).toEqual(['openFile:robot']);
});
