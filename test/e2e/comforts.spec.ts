/**
 * Everyday comforts in the web build (issue #17): files dropped on the window (a synthetic
 * DataTransfer, as a browser builds one) open through the same paths as the Open buttons; bad or
 * incomplete drops say why and keep the running world; display units change every readout and
 * are remembered across reloads; world axes, the colour-blind palette, plain terrain, the
 * background and the camera presets change the 3D view; a terrain too fine for the wheels is
 * said over the 3D view; the layout follows the window and
 * collapsed sidebar panels, the collapsed sidebar and plot strip stay collapsed. Screenshots are kept in test-results/panels/ for review.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { watchConsole as watchConsoleOf } from './console';
import { pixelStats } from './pixels';
import { cameraSettled, framesReceived, framesRendered, panelTicks } from './wait';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

const SHOTS = 'test-results/panels';
const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const asset = (p: string): string => fileURLToPath(new URL(`../../assets/${p}`, import.meta.url));

interface Hook {
  ready: boolean;
  scenarioName: string | null;
  loads: number;
  error: string | null;
  framesRendered: number;
  framesReceived: number;
  visualBodies: number;
  bodyNames: string[];
  lastFrame: { step: number; speed: number; chassis: number[] } | null;
}

const hook = (page: Page): Promise<Hook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as Hook);

/** three's ColladaLoader notes that it rotates a Z-up asset (the e2e caster): expected, not a problem. */
const COLLADA_Z_UP = 'THREE.ColladaLoader: You are loading an asset with a Z-UP';
const watchConsole = (page: Page): string[] => watchConsoleOf(page, [COLLADA_Z_UP]);

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  await waitFrames(page);
}

async function waitFrames(page: Page, n = 3): Promise<void> {
  await framesRendered(page, n + 1);
}

/** Files as the page sees them: name + base64 bytes (from disk, or literal text). */
type DropFile = { name: string; path?: string; text?: string };

/** Dispatches `type` (dragenter, dragover, drop…) on the 3D view with a DataTransfer holding `files`. */
async function drag(page: Page, type: string, files: DropFile[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, b64: (f.path ? readFileSync(f.path) : Buffer.from(f.text ?? '')).toString('base64') }));
  const dt = await page.evaluateHandle((fs) => {
    const d = new DataTransfer();
    for (const f of fs) d.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name));
    return d;
  }, payload);
  await page.dispatchEvent('#view3d', type, { dataTransfer: dt });
}

async function shoot(page: Page, selector: string, name: string): Promise<Buffer> {
  const png = await page.locator(selector).screenshot();
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(`${SHOTS}/${name}.png`, png);
  return png;
}

test('drop a scenario, then a terrain: each loads through the Open paths; bad drops keep the world', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const h0 = await hook(page);

  // The drop zone lights up while files are dragged over the window.
  await expect(page.getByTestId('drop-zone')).toBeHidden();
  await drag(page, 'dragenter', [{ name: 'x.json', text: '{}' }]);
  await expect(page.getByTestId('drop-zone')).toBeVisible();
  await shoot(page, 'body', 'drop-zone');
  await drag(page, 'dragleave', [{ name: 'x.json', text: '{}' }]);
  await expect(page.getByTestId('drop-zone')).toBeHidden();

  // A URDF with its STL and Collada meshes, into the running (version 2) scenario.
  await drag(page, 'drop', [{ name: 'e2e-bot.urdf', path: fixture('e2e-bot.urdf') }, { name: 'e2e-shell.stl', path: fixture('e2e-shell.stl') }, { name: 'e2e-caster.dae', path: fixture('e2e-caster.dae') }]);
  await expect.poll(async () => (await hook(page)).loads).toBe(h0.loads + 1);
  let h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.scenarioName).toBe(h0.scenarioName);
  expect(h.bodyNames).toContain('chassis:e2e_base');
  expect(h.visualBodies).toBe(4);

  // A v1 scenario naming a bundled terrain.
  await drag(page, 'drop', [{ name: 'ramp-scenario.json', path: fixture('ramp-scenario.json') }]);
  await expect.poll(async () => (await hook(page)).scenarioName).toBe('e2e ramp');
  h = await hook(page);
  expect(h.loads).toBe(h0.loads + 2);
  expect(h.error).toBeNull();
  await expect(page.locator('#world-name')).toContainText('601×481');

  // A terrain (sidecar + image dropped together) into the running scenario.
  await drag(page, 'drop', [{ name: 'curbs.png', path: asset('terrains/curbs.png') }, { name: 'curbs.json', path: asset('terrains/curbs.json') }]);
  await expect.poll(async () => (await hook(page)).loads).toBe(h0.loads + 3);
  h = await hook(page);
  expect(h.error).toBeNull();
  expect(h.scenarioName).toBe('e2e ramp');
  await expect(page.locator('#world-name')).toContainText('601×401 @ 0.05 m');
  await waitFrames(page);
  await shoot(page, '#view3d', 'drop-terrain');

  // A PNG alone: loads with the default spacing and says so.
  await drag(page, 'drop', [{ name: 'ramp.png', path: asset('terrains/ramp.png') }]);
  await expect.poll(async () => (await hook(page)).loads).toBe(h0.loads + 4);
  await expect(page.locator('#world-name')).toContainText('601×481 @ 0.1 m');
  await expect(page.locator('#banner-text')).toContainText('no sidecar dropped');

  // Unknown file, sidecar without its image, a robot into a version 1 scenario, a fake recording:
  // a message each, nothing loads.
  const loads = (await hook(page)).loads;
  await drag(page, 'drop', [{ name: 'notes.txt', text: 'hello' }]);
  await expect(page.locator('#banner-text')).toContainText('Cannot open notes.txt');
  await drag(page, 'drop', [{ name: 'hills.json', path: asset('terrains/hills.json') }]);
  await expect(page.locator('#banner-text')).toHaveText('hills.json needs hills.png (the terrain image its "image" names): drop it together with hills.json.');
  await drag(page, 'drop', [{ name: 'e2e-bot.urdf', path: fixture('e2e-bot.urdf') }, { name: 'e2e-shell.stl', path: fixture('e2e-shell.stl') }]);
  await expect(page.locator('#banner-text')).toContainText('Could not load e2e-bot.urdf: a robot can be opened into a version 2 scenario only');
  await drag(page, 'drop', [{ name: 'fake.mcap', text: 'not a recording' }]);
  await expect(page.locator('#banner-text')).toContainText('fake.mcap');
  h = await hook(page);
  expect(h.loads).toBe(loads);
  expect(h.scenarioName).toBe('e2e ramp');
  await expect.poll(async () => (await hook(page)).lastFrame?.step ?? 0).toBeGreaterThan(0);
  const s = (await hook(page)).lastFrame!.step;
  await expect.poll(async () => (await hook(page)).lastFrame!.step).toBeGreaterThan(s + 10); // still running
  expect(problems).toEqual([]);
});

test('units change the entity panel, inspector, status bar and plot labels, and are remembered; view colours and world axes redraw the 3D view', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  // The ramp fixture: the robot stands still at (-8, 0) facing +x, so the chase camera looks at the origin.
  await drag(page, 'drop', [{ name: 'ramp-scenario.json', path: fixture('ramp-scenario.json') }]);
  await expect.poll(async () => (await hook(page)).scenarioName).toBe('e2e ramp');
  await page.keyboard.press('Space'); // pause: the view only changes through the settings below
  await expect.poll(async () => (await hook(page)).lastFrame?.step).toBeGreaterThan(0);
  await cameraSettled(page); // the chase camera caught up with the still robot
  const h = await hook(page);
  const base = h.bodyNames.findIndex((n) => n.startsWith('chassis:'));
  await page.locator(`[data-entity="body:${base}"]`).click();
  const state = page.getByTestId('entity-state');
  await expect(state).toContainText('position m');
  await expect(state).toContainText('roll pitch yaw °');
  const posRow = state.locator('tr', { hasText: 'position' }).locator('td').nth(1);
  const xm = Number((await posRow.textContent())!.split(' ')[0]);
  await expect(page.locator('#status')).toContainText('m/s');

  await page.locator('#set-units-length').selectOption('mm');
  await page.locator('#set-units-angle').selectOption('rad');
  await page.locator('#set-units-force').selectOption('kN');
  await expect(state).toContainText('position mm');
  await expect(state).toContainText('roll pitch yaw rad');
  await expect(state).toContainText('velocity m/s'); // speeds stay in m/s (issue #30: not "1008 mm/s")
  await expect(state).not.toContainText('mm/s');
  const xmm = Number((await posRow.textContent())!.split(' ')[0]);
  expect(Math.abs(xmm - xm * 1000)).toBeLessThan(1); // the same position, now in mm
  await expect(page.locator('#status')).toContainText(' m/s');
  await expect(page.locator('#inspector th', { hasText: 'depth' })).toHaveText('depth mm');
  await expect(page.locator('#inspector th', { hasText: 'force' })).toHaveText('force kN');
  await expect(page.getByTestId('series')).toContainText('[m/s]');
  await shoot(page, '#sidebar', 'units-sidebar');

  // World axes, colour-blind palette, plain terrain, background: each changes the drawn view.
  const changed = async (name: string, act: () => Promise<unknown>): Promise<number> => {
    await waitFrames(page);
    const before = await page.locator('#view3d').screenshot();
    await act();
    await waitFrames(page);
    const after = await shoot(page, '#view3d', name);
    return (await pixelStats(page, after, before)).changedFraction;
  };
  // The origin lies 8 m ahead of the robot, in the chase camera's view.
  expect(await changed('world-axes-off', () => page.locator('#set-showWorldAxes').uncheck())).toBeGreaterThan(0);
  expect(await changed('terrain-plain', () => page.locator('#set-terrainColors').selectOption('plain'))).toBeGreaterThan(0.05);
  expect(await changed('background', () => page.locator('#set-background').fill('#202020'))).toBeGreaterThan(0.02);
  // Camera presets: top-down and follow-wheel each show another view; back to chase.
  expect(await changed('camera-top', () => page.locator('#camera-menu').selectOption('top'))).toBeGreaterThan(0.05);
  expect(await changed('camera-wheel', () => page.locator('#camera-menu').selectOption('wheel'))).toBeGreaterThan(0.05);
  await page.locator('#camera-menu').selectOption('chase');
  await page.locator('#set-contactPalette').selectOption('colorblind');
  // The help legend shows the palette's colours.
  await expect(page.locator('[data-contact-kind="0"]')).toHaveCSS('color', 'rgb(0, 158, 115)');

  // Remembered across runs.
  await page.reload();
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  await expect(page.locator('#set-units-length')).toHaveValue('mm');
  await expect(page.locator('#set-units-angle')).toHaveValue('rad');
  await expect(page.locator('#set-units-force')).toHaveValue('kN');
  await expect(page.locator('#set-terrainColors')).toHaveValue('plain');
  await expect(page.locator('#set-contactPalette')).toHaveValue('colorblind');
  await expect(page.locator('#set-background')).toHaveValue('#202020');
  await expect(page.locator('#set-showWorldAxes')).not.toBeChecked();
  await expect(page.locator('#status')).toContainText(' m/s');
  expect(problems).toEqual([]);
});

test('the layout follows the window; sidebar panels collapse and stay collapsed after a reload', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const canvasSize = (): Promise<number[]> => page.locator('#view3d').evaluate((c) => [(c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height, c.clientWidth, c.clientHeight]);
  const [w0, h0] = await canvasSize();
  await page.setViewportSize({ width: 800, height: 560 });
  await waitFrames(page);
  // the 3D view's drawing buffer follows its new CSS size (960 → 800 px wide: 160 px narrower)
  await expect.poll(async () => { const [w, h, cw, ch] = await canvasSize(); return w === cw && h === ch && w === w0 - 160 && h < h0; }).toBe(true);
  // a sidebar section collapses from its title, and the choice is remembered (paused: the
  // contact table above it keeps its height, so the title stays where the click goes)
  await page.keyboard.press('Space');
  await expect.poll(async () => (await page.evaluate(() => window.__terrawheel?.paused)) === true).toBe(true);
  await framesReceived(page, 3);
  await panelTicks(page, 2); // the panels redrew with the paused frame
  const manifold = page.locator('details[data-panel="manifold"]');
  await expect(manifold).toHaveJSProperty('open', true);
  await manifold.locator('summary').click();
  await expect(manifold).toHaveJSProperty('open', false);
  await expect(page.locator('#manifold')).toBeHidden();
  await page.reload();
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  await expect(page.locator('details[data-panel="manifold"]')).toHaveJSProperty('open', false);
  await page.locator('details[data-panel="manifold"] summary').click();
  await expect(page.locator('#manifold')).toBeVisible();
  expect(problems).toEqual([]);
});

test('the sidebar and the plot strip collapse from keyboard-reachable toggles, the 3D view grows, and the state survives a reload', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  // [drawing-buffer width, height, CSS width, height] of the 3D view
  const view = (): Promise<number[]> => page.locator('#view3d').evaluate((c) => [(c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height, c.clientWidth, c.clientHeight]);
  const settled = async (pred: (v: number[]) => boolean): Promise<number[]> => {
    await expect.poll(async () => { const v = await view(); return v[0] === v[2] && v[1] === v[3] && pred(v); }).toBe(true);
    return view();
  };
  const sidebarBtn = page.getByTestId('toggle-sidebar'), plotsBtn = page.getByTestId('toggle-plots');
  const [w0, h0] = await settled(() => true);
  await expect(sidebarBtn).toHaveAttribute('aria-expanded', 'true');
  await expect(plotsBtn).toHaveAttribute('aria-expanded', 'true');
  const sidebarWidth = (await page.locator('#sidebar').boundingBox())!.width;
  const stripHeight = (await page.locator('#panel-wrap').boundingBox())!.height;
  // the sidebar from the keyboard: focus its toggle, Enter
  await sidebarBtn.focus();
  await page.keyboard.press('Enter');
  await expect(sidebarBtn).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('#sidebar')).toBeHidden();
  const [w1] = await settled((v) => v[0] > w0);
  expect(w1).toBe(w0 + sidebarWidth);
  // the plot strip: the 3D view gets its height
  await plotsBtn.click();
  await expect(plotsBtn).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('#panel-wrap')).toBeHidden();
  await settled((v) => v[1] === h0 + stripHeight && v[0] === w1);
  await page.reload();
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  await expect(sidebarBtn).toHaveAttribute('aria-expanded', 'false');
  await expect(plotsBtn).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('#sidebar')).toBeHidden();
  await expect(page.locator('#panel-wrap')).toBeHidden();
  await settled((v) => v[0] === w1 && v[1] === h0 + stripHeight);
  // expand both again: back to the first size, the plot canvas drawn at its new size
  await sidebarBtn.click();
  await plotsBtn.focus();
  await page.keyboard.press('Enter');
  await expect(sidebarBtn).toHaveAttribute('aria-expanded', 'true');
  await expect(plotsBtn).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#sidebar')).toBeVisible();
  await settled((v) => v[0] === w0 && v[1] === h0);
  await expect.poll(() => page.locator('#panel').evaluate((c) => (c as HTMLCanvasElement).width > 0 && Math.abs((c as HTMLCanvasElement).width / devicePixelRatio - c.clientWidth) < 2 && c.clientHeight > 100)).toBe(true);
  expect(problems).toEqual([]);
});

test('a terrain too fine for the wheels is said over the 3D view', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const h0 = await hook(page);
  // the curbs image at 4 mm per pixel (2.4 m × 1.6 m) into the running scenario: each of the
  // rover's wheels covers ~6000 cells per query, over WHEEL_MAX_FOOTPRINT_CELLS (1024)
  const sidecar = { ...JSON.parse(readFileSync(asset('terrains/curbs.json'), 'utf8')), metersPerPixel: 0.004, origin: [-1.2, -0.8], name: 'curbs-fine' };
  await drag(page, 'drop', [{ name: 'curbs.png', path: asset('terrains/curbs.png') }, { name: 'curbs-fine.json', text: JSON.stringify(sidecar) }]);
  await expect.poll(async () => (await hook(page)).loads).toBe(h0.loads + 1);
  expect((await hook(page)).error).toBeNull();
  await expect(page.locator('#warnings')).toContainText('terrain too fine for 4 wheels');
  await expect(page.locator('#warnings')).not.toContainText('terrain too coarse');
  expect(problems).toEqual([]);
});
