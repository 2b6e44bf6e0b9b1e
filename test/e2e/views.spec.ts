/**
 * The views (issue #30): every bundled scenario opens with its subject in view (the whole robot,
 * a trailer included, and the barrels of the paper's first scene); the terrain is hillshaded
 * with the scenario's material colours, and slope colours and contour lines switch on; the
 * manifold view draws the paper's construction for a wheel, a URDF robot's compound-shape wheel
 * included; contact force arrows take a numeric scale shown in the view's legend. Pictures are
 * compared with committed references (test/e2e/views.spec.ts-snapshots/) with a tolerance:
 * SwiftShader renders the same on one machine, another machine's fonts and rounding differ a
 * little. Every picture is of a state reached by waiting on the app (loaded paused, N single
 * steps, terrain chunks all drawn, camera settled), never after a delay.
 */
import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { watchConsole } from './console';
import { cameraSettled, framesRendered, panelTicks, toolbarControl } from './wait';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

/**
 * Tolerances of the picture comparisons. The terrain: at most 2 % of pixels may differ by more
 * than 0.1 (pixelmatch's YIQ distance; rounding on another machine's SwiftShader stays under it,
 * while dropping the hillshade or the material tint moves most pixels past it). The manifold view
 * is mostly text: 4 % of pixels at 0.2 allows another machine's font rasterisation.
 */
const STYLE = fileURLToPath(new URL('./views-screenshot.css', import.meta.url));
const TERRAIN_PICTURE = { maxDiffPixelRatio: 0.02, threshold: 0.1, stylePath: STYLE } as const;
const PANEL_PICTURE = { maxDiffPixelRatio: 0.04, threshold: 0.2, stylePath: STYLE } as const;

interface Hook {
  ready: boolean;
  loads: number;
  paused: boolean;
  error: string | null;
  scenarioName: string | null;
  lastFrame: { step: number } | null;
  bodyNames: string[];
  terrain: { drawnChunks: number; wantedChunks: number; waiting: number; inFlight: number } | null;
  terrainStride: number;
  view: {
    terrainMaterials: string[];
    contourInterval: number;
    camera: { mode: string; scenarioView: boolean; distance: number };
    robotOnScreen: { shown: number; of: number };
    obstaclesOnScreen: { shown: number; of: number };
    manifold: { wheel: number; case: string; element: string; halfWidthL: number; points: number; footprintCorners: number } | null;
  };
}

/**
 * [ms] Failure backstop of a toolbar action: a visible control acts at once, so this only turns a
 * control that never becomes usable into a failure naming it instead of the test's whole timeout.
 */
const CONTROL_BACKSTOP_MS = 60_000;

const hook = (page: Page): Promise<Hook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as Hook);

async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  await framesRendered(page, 3);
}

/** Opens a bundled scenario from the menu and waits until it is the world drawn. */
async function openScenario(page: Page, path: string): Promise<void> {
  const loads = (await hook(page)).loads;
  await page.locator('#scenario-menu').selectOption(path);
  await expect.poll(async () => (await hook(page)).loads, { message: path }).toBe(loads + 1);
  await page.waitForFunction(() => window.__terrawheel?.lastFrame !== null);
}

/** Waits until the terrain's whole selection is drawn, with nothing in flight, exact under the robot. */
async function terrainDrawn(page: Page): Promise<void> {
  await expect.poll(async () => {
    const h = await hook(page);
    const t = h.terrain;
    return t !== null && t.waiting === 0 && t.inFlight === 0 && t.drawnChunks === t.wantedChunks && h.terrainStride === 1;
  }).toBe(true);
  await framesRendered(page, 2);
}

/** Pauses the world (the next scenario loads paused at step 0). */
async function pause(page: Page): Promise<void> {
  if (!(await hook(page)).paused) await page.locator('#btn-pause').click();
  await expect.poll(async () => (await hook(page)).paused).toBe(true);
}

/**
 * Opens a bundled scenario at step 0, paused: a new world runs even if the old one was paused,
 * so pause it and Reset (which keeps the pause) to have it again from its first step.
 */
async function openPausedAtStart(page: Page, path: string): Promise<void> {
  await openScenario(page, path);
  await pause(page);
  const loads = (await hook(page)).loads;
  await page.locator('#btn-reset').click();
  await expect.poll(async () => (await hook(page)).loads).toBe(loads + 1);
  await expect.poll(async () => (await hook(page)).lastFrame?.step).toBe(0);
}

/** `n` single steps while paused, each waited for. */
async function stepTo(page: Page, step: number): Promise<void> {
  for (let s = (await hook(page)).lastFrame!.step; s < step; s++) {
    await page.keyboard.press('.');
    await expect.poll(async () => (await hook(page)).lastFrame!.step).toBe(s + 1);
  }
}

test('every bundled scenario opens with its subject in view: the whole robot (trailer included), the barrels', async ({ page }) => {
  test.setTimeout(900_000); // a backstop: a dozen loads one after another
  // The bundled real robots' meshes say their own things while loading (inspect.spec.ts's
  // every-scenario test watches those); this test is about where the camera looks.
  const seen = watchConsole(page, ['THREE.BufferGeometry.toNonIndexed()']);
  await openApp(page);
  await pause(page);
  const options = await page.locator('#scenario-menu option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v));
  expect(options.length).toBeGreaterThanOrEqual(9);
  for (const path of options) {
    await openScenario(page, path);
    await pause(page); // a world loaded while paused runs: pause it so the chase camera can settle
    await cameraSettled(page);
    const h = await hook(page);
    expect(h.error, path).toBeNull();
    expect(h.view.robotOnScreen.of, path).toBeGreaterThan(0);
    expect(h.view.robotOnScreen.shown, `${path}: every robot body on screen`).toBe(h.view.robotOnScreen.of);
    expect(h.view.obstaclesOnScreen.shown, `${path}: every obstacle on screen`).toBe(h.view.obstaclesOnScreen.of);
    if (path.includes('barrels')) {
      expect(h.view.obstaclesOnScreen.of).toBe(3);
      expect(h.view.camera.scenarioView).toBe(true);
      expect(h.view.terrainMaterials).toEqual(['asphalt']);
    }
  }
  // picking a preset ends the scenario's view: the camera follows the robot again
  await openScenario(page, options.find((o) => o.includes('barrels'))!);
  expect((await hook(page)).view.camera.scenarioView).toBe(true);
  // the camera menu: folded into the ☰ menu in the 960 × 640 test window (toolbarControl opens it);
  // a backstop bounds the action (a hidden control used to wait out the test's whole timeout)
  await (await toolbarControl(page, '#camera-menu')).selectOption('top', { timeout: CONTROL_BACKSTOP_MS });
  await expect.poll(async () => (await hook(page)).view.camera.scenarioView).toBe(false);
  await (await toolbarControl(page, '#camera-menu')).selectOption('chase', { timeout: CONTROL_BACKSTOP_MS });
  expect(seen.filter((p) => !p.includes('Failed to load resource'))).toEqual([]);
});

test('terrain: hillshade and material colours, then slope colours and contour lines (pictures)', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  await openPausedAtStart(page, 'scenarios/sandhill.json');
  const h = await hook(page);
  expect(h.paused).toBe(true);
  expect(h.lastFrame!.step).toBe(0);
  expect(h.view.terrainMaterials).toEqual(['grass', 'sand']);
  // back out (eight wheel notches: the chase camera ×2.6 away) so the hills and the sand disc on
  // the hill top fill the view and the relief shading is part of the picture
  await page.locator('#view3d').hover();
  for (let k = 0; k < 8; k++) await page.mouse.wheel(0, 120);
  await expect.poll(async () => (await hook(page)).view.camera.distance).toBeGreaterThan(20);
  await terrainDrawn(page);
  await cameraSettled(page);
  await expect(page.locator('#view3d')).toHaveScreenshot('sandhill-materials.png', TERRAIN_PICTURE);
  await page.locator('#set-terrainColors').selectOption('slope');
  await page.locator('#set-terrainContours').check();
  expect((await hook(page)).view.contourInterval).toBeGreaterThan(0);
  await framesRendered(page, 2);
  await expect(page.locator('#view3d')).toHaveScreenshot('sandhill-slope-contours.png', TERRAIN_PICTURE);
  await page.locator('#set-terrainColors').selectOption('height');
  await page.locator('#set-terrainContours').uncheck();
  expect(problems).toEqual([]);
});

test('the manifold view draws the paper\'s construction for a wheel (picture)', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  await openPausedAtStart(page, 'scenarios/curbs.json');
  await stepTo(page, 40);
  await expect.poll(async () => (await hook(page)).view.manifold?.points ?? 0).toBeGreaterThan(0);
  await panelTicks(page, 2);
  const m = (await hook(page)).view.manifold!;
  // the rover's wheel lies on its side on flat ground: case B, the side trapezoid
  expect(m.case).toBe('B');
  expect(m.halfWidthL).toBeGreaterThan(0);
  await expect(page.locator('#manifold')).toHaveScreenshot('manifold-curbs.png', PANEL_PICTURE);
  expect(problems).toEqual([]);
});

test('a URDF wheel whose cylinder sits in a compound (the Husky\'s) is a wheel: selecting it opens its manifold view with the paper\'s construction', async ({ page }) => {
  const problems = watchConsole(page, ['THREE.BufferGeometry.toNonIndexed()']);
  await openApp(page);
  await openPausedAtStart(page, 'scenarios/robot-husky.json');
  const names = (await hook(page)).bodyNames;
  const wheel = names.indexOf('wheel:rear_left_wheel_link');
  expect(wheel, names.join(', ')).toBeGreaterThan(0);
  expect(names.filter((n) => n.startsWith('wheel:'))).toHaveLength(4);
  await stepTo(page, 40); // settled onto the ground
  await page.locator(`[data-entity="body:${wheel}"]`).click();
  await expect(page.locator(`[data-entity="body:${wheel}"]`)).toHaveClass(/selected/);
  await expect.poll(async () => (await hook(page)).view.manifold?.wheel ?? -1).toBe(wheel);
  await panelTicks(page, 2);
  const m = (await hook(page)).view.manifold!;
  expect(m.points).toBeGreaterThan(0);
  // the wheel stands on the ramps' flat approach: case B, the side trapezoid about the lowest line,
  // and the footprint (the cylinder, placed by its collision origin, cut by the contact plane)
  expect(m.case).toBe('B');
  expect(m.halfWidthL).toBeGreaterThan(0);
  expect(m.footprintCorners).toBeGreaterThanOrEqual(4);
  expect(problems.filter((p) => !p.includes('Failed to load resource'))).toEqual([]);
});

test('contact force arrows: a numeric scale in N per metre or auto, shown in the legend over the view and remembered', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  const legend = page.locator('#force-legend');
  await expect(legend).toBeHidden(); // normals by depth (the default): no force scale to show
  await page.locator('#set-normalScale').selectOption('force');
  await expect(legend).toHaveText(/^force arrows: 1 m = [\d.]+ N \(auto\)$/);
  await expect(page.locator('#set-forceScale')).toBeDisabled();
  await page.locator('#set-forceScaleAuto').uncheck();
  await page.locator('#set-forceScale').fill('125');
  await page.locator('#set-forceScale').press('Enter');
  await expect(legend).toHaveText('force arrows: 1 m = 125 N');
  await page.locator('#set-forceScale').fill('-3'); // refused: the last good value stays
  await page.locator('#set-forceScale').press('Enter');
  await expect(page.locator('#set-forceScale')).toHaveValue('125');
  const stored = await page.evaluate(() => localStorage.getItem('terrawheel.ui.v1'));
  expect(JSON.parse(stored!)).toMatchObject({ normalScale: 'force', forceScale: 125, forceScaleAuto: false });
  await page.reload();
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  await expect(page.locator('#set-forceScale')).toHaveValue('125');
  await expect(legend).toHaveText('force arrows: 1 m = 125 N');
  await page.locator('#set-normalScale').selectOption('depth');
  await expect(legend).toBeHidden();
  expect(problems).toEqual([]);
});
