/**
 * Layout and capture (issue #30): at 1280 × 800 and 1920 × 1080 the key controls lie wholly inside
 * the window and do not overlap (bounding boxes, not pixels); the toolbar folds into a menu when
 * narrow; the panels resize by drag and keep their size across a reload; a screenshot is a PNG of
 * the 3D view's size, a short video a WebM; a contact's data goes to the clipboard as JSON; a
 * scenario loaded while paused runs. Every wait is on the app's state (test/e2e/wait.ts).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { watchConsole } from './console';
import { framesRendered, panelTicks, stepsAdvance } from './wait';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

type Box = { x: number; y: number; width: number; height: number };

async function openApp(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  await expect.poll(() => page.evaluate(() => window.__terrawheel?.lastFrame?.contacts ?? 0)).toBeGreaterThan(0);
  await panelTicks(page, 2); // the toolbar folded (a frame after a resize) and the panels drew
}

async function box(l: Locator, what: string): Promise<Box> {
  const b = await l.boundingBox();
  expect(b, `${what} is not displayed`).not.toBeNull();
  return b!;
}

/** [px] Sub-pixel layout rounding allowed at the edges. */
const EDGE_PX = 0.5;

function inside(b: Box, outer: Box, what: string): void {
  expect(b.width, `${what} has no width`).toBeGreaterThan(0);
  expect(b.x, `${what} starts left of its container`).toBeGreaterThanOrEqual(outer.x - EDGE_PX);
  expect(b.y, `${what} starts above its container`).toBeGreaterThanOrEqual(outer.y - EDGE_PX);
  expect(b.x + b.width, `${what} ends right of its container`).toBeLessThanOrEqual(outer.x + outer.width + EDGE_PX);
  expect(b.y + b.height, `${what} ends below its container`).toBeLessThanOrEqual(outer.y + outer.height + EDGE_PX);
}

/** Horizontally inside (a table column: the sidebar scrolls vertically, never sideways). */
function insideX(b: Box, outer: Box, what: string): void {
  expect(b.width, `${what} has no width`).toBeGreaterThan(0);
  expect(b.x, `${what} starts left of its container`).toBeGreaterThanOrEqual(outer.x - EDGE_PX);
  expect(b.x + b.width, `${what} is cut on the right`).toBeLessThanOrEqual(outer.x + outer.width + EDGE_PX);
}

function apart(a: Box, b: Box, what: string): void {
  const overlapX = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const overlapY = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  expect(overlapX <= EDGE_PX || overlapY <= EDGE_PX, `${what} overlap`).toBe(true);
}

/** Pauses and selects the first manifold row's contact from the inspector. */
async function selectFirstContact(page: Page): Promise<void> {
  await page.keyboard.press('Space');
  await expect.poll(() => page.evaluate(() => window.__terrawheel?.paused)).toBe(true);
  await panelTicks(page, 2);
  await page.locator('#inspector tr.manifold').first().click();
  await expect.poll(() => page.evaluate(() => window.__terrawheel?.selectedContact?.index ?? -1)).toBeGreaterThanOrEqual(0);
  await panelTicks(page, 2);
}

for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
  test(`${width} × ${height}: toolbar, 3D view, sidebar, inspector and status inside the window, nothing overlapping`, async ({ page }) => {
    const problems = watchConsole(page);
    await openApp(page, width, height);
    const win: Box = { x: 0, y: 0, width, height };
    const toolbar = await box(page.locator('#toolbar'), 'toolbar');
    inside(toolbar, win, 'toolbar');
    // the toolbar neither scrolls nor clips, and the world's name is not cut
    const fits = await page.evaluate(() => {
      const t = document.getElementById('toolbar')!, n = document.getElementById('world-name')!;
      return { toolbar: t.scrollWidth <= t.clientWidth + 1, name: n.scrollWidth <= n.clientWidth + 1, text: n.textContent ?? '' };
    });
    expect(fits.toolbar).toBe(true);
    expect(fits.name, `world name cut: "${fits.text}"`).toBe(true);
    expect(fits.text).toContain('Rolling hills');
    const controls = ['#scenario-menu', '#btn-reset', '#btn-pause', '#btn-step', '#btn-record', '#world-name'];
    const boxes: [string, Box][] = [];
    for (const sel of controls) boxes.push([sel, await box(page.locator(sel), sel)]);
    const more = page.locator('#btn-more');
    if (await more.isVisible()) boxes.push(['#btn-more', await box(more, '#btn-more')]);
    for (const sel of ['#btn-open-robot', '#btn-screenshot', '#btn-video', '#chk-contacts', '#camera-menu']) {
      const l = page.locator(`#toolbar ${sel}`);
      if (await l.count() > 0) boxes.push([sel, await box(l, sel)]);
    }
    for (const [sel, b] of boxes) inside(b, toolbar, sel);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) apart(boxes[i][1], boxes[j][1], `${boxes[i][0]} and ${boxes[j][0]}`);
    if (width >= 1920) expect(await page.evaluate(() => window.__terrawheel?.toolbarFolded)).toEqual([]);

    // the big areas: inside the window, apart from each other
    const areas: [string, Box][] = [];
    for (const sel of ['#toolbar', '#view3d', '#sidebar', '#plot-panes', '#status']) {
      const b = await box(page.locator(sel), sel);
      inside(b, win, sel);
      areas.push([sel, b]);
    }
    for (let i = 0; i < areas.length; i++) for (let j = i + 1; j < areas.length; j++) apart(areas[i][1], areas[j][1], `${areas[i][0]} and ${areas[j][0]}`);

    // the contact table's force column and the selected contact's detail, inside the sidebar's view
    await selectFirstContact(page);
    const sidebar = await box(page.locator('#sidebar'), 'sidebar');
    const sidebarView: Box = { ...sidebar, width: await page.locator('#sidebar').evaluate((e) => e.clientWidth) };
    const force = await box(page.locator('#inspector table.manifolds th').nth(6), 'force column');
    await expect(page.locator('#inspector table.manifolds th').nth(6)).toContainText('force');
    insideX(force, sidebarView, 'the contact table\'s force column');
    const forceCell = await box(page.locator('#inspector tr.manifold').first().locator('td').nth(6), 'a force value');
    insideX(forceCell, sidebarView, 'a force value');
    expect(await page.locator('#sidebar').evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true); // nothing wider than the sidebar
    const detail = page.getByTestId('contact-detail');
    await expect(detail).toContainText('normal force');
    inside(await box(detail, 'contact detail'), sidebarView, 'the selected contact\'s detail');
    inside(await box(page.getByTestId('copy-contact-json'), 'Copy JSON'), sidebarView, 'Copy JSON');

    // the sidebar collapsed: its show-again toggle is a labelled tab, inside the window
    const toggle = page.getByTestId('toggle-sidebar');
    await toggle.click();
    await expect(page.locator('#sidebar')).toBeHidden();
    const tab = await box(toggle, 'show-again toggle');
    inside(tab, win, 'the sidebar\'s show-again toggle');
    expect(tab.width).toBeGreaterThanOrEqual(20);
    expect(tab.height).toBeGreaterThan(100);
    await expect(toggle).toContainText('sidebar');
    await toggle.click();
    await expect(page.locator('#sidebar')).toBeVisible();
    expect(problems).toEqual([]);
  });
}

test('a narrow window folds the toolbar into a menu; its controls work from there; a wide one unfolds it', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page, 900, 700);
  await expect(page.locator('#btn-more')).toBeVisible();
  const folded = (await page.evaluate(() => window.__terrawheel?.toolbarFolded)) ?? [];
  expect(folded).toContain('btn-help');
  expect(await page.evaluate(() => document.getElementById('toolbar')!.scrollWidth <= document.getElementById('toolbar')!.clientWidth + 1)).toBe(true);
  await page.locator('#btn-more').click();
  const menu = page.getByTestId('toolbar-menu');
  await expect(menu).toBeVisible();
  inside(await box(menu, 'toolbar menu'), { x: 0, y: 0, width: 900, height: 700 }, 'the toolbar menu');
  await menu.locator('#btn-help').click();
  await expect(menu).toBeHidden();
  await expect(page.locator('#help')).toBeVisible();
  await page.setViewportSize({ width: 1920, height: 1080 });
  await expect.poll(() => page.evaluate(() => window.__terrawheel?.toolbarFolded)).toEqual([]);
  await expect(page.locator('#btn-more')).toBeHidden();
  await expect(page.locator('#toolbar #btn-help')).toBeVisible();
  expect(problems).toEqual([]);
});

test('panels resize by dragging their edges, and keep the size across a reload', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page, 1280, 800);
  const side0 = await box(page.locator('#sidebar'), 'sidebar');
  const plots0 = await box(page.locator('#panel-wrap'), 'plot strip');
  const drag = async (sel: string, dx: number, dy: number): Promise<void> => {
    const h = await box(page.locator(sel), sel);
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + h.width / 2 + dx, h.y + h.height / 2 + dy, { steps: 4 });
    await page.mouse.up();
  };
  await drag('#resize-sidebar', -80, 0);
  await drag('#resize-plots', 0, -60);
  const side1 = await box(page.locator('#sidebar'), 'sidebar');
  const plots1 = await box(page.locator('#panel-wrap'), 'plot strip');
  expect(side1.width).toBeCloseTo(side0.width + 80, 0);
  expect(plots1.height).toBeCloseTo(plots0.height + 60, 0);
  await page.reload();
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  expect((await box(page.locator('#sidebar'), 'sidebar')).width).toBeCloseTo(side1.width, 0);
  expect((await box(page.locator('#panel-wrap'), 'plot strip')).height).toBeCloseTo(plots1.height, 0);
  // double-click: the default again
  await page.locator('#resize-sidebar').dblclick();
  expect((await box(page.locator('#sidebar'), 'sidebar')).width).toBeCloseTo(side0.width, 0);
  expect(problems).toEqual([]);
});

test.describe('capture', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('screenshot: a PNG of the 3D view\'s size; video: a WebM; Copy JSON: the selected contact on the clipboard', async ({ page }) => {
    const problems = watchConsole(page);
    await openApp(page, 1920, 1080);
    const canvas = await page.locator('#view3d').evaluate((c: HTMLCanvasElement) => ({ width: c.width, height: c.height }));

    const [shot] = await Promise.all([page.waitForEvent('download'), page.getByTestId('btn-screenshot').click()]);
    expect(shot.suggestedFilename()).toMatch(/^rolling-hills-.*\.png$/);
    const png = readFileSync((await shot.path())!);
    const decoded = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const g = c.getContext('2d')!;
      g.drawImage(bmp, 0, 0);
      const px = g.getImageData(0, 0, bmp.width, bmp.height).data;
      const colours = new Set<number>();
      for (let k = 0; k < px.length; k += 4 * 97) colours.add((px[k] << 16) | (px[k + 1] << 8) | px[k + 2]);
      return { width: bmp.width, height: bmp.height, colours: colours.size };
    }, png.toString('base64'));
    expect({ width: decoded.width, height: decoded.height }).toEqual(canvas);
    expect(decoded.colours, 'the screenshot is blank').toBeGreaterThan(20);

    await page.getByTestId('btn-video').click();
    await expect.poll(() => page.evaluate(() => window.__terrawheel?.capture?.recordingVideo)).toBe(true);
    await stepsAdvance(page, 100);
    await framesRendered(page, 20);
    const [video] = await Promise.all([page.waitForEvent('download'), page.getByTestId('btn-video').click()]);
    expect(video.suggestedFilename()).toMatch(/\.webm$/);
    const webm = readFileSync((await video.path())!);
    expect(webm.byteLength).toBeGreaterThan(0);
    expect(Array.from(webm.subarray(0, 4))).toEqual([0x1a, 0x45, 0xdf, 0xa3]); // EBML magic
    expect(webm.subarray(0, 64).toString('latin1')).toContain('webm'); // the EBML DocType

    await selectFirstContact(page);
    await page.getByTestId('copy-contact-json').click();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    const json = JSON.parse(text) as Record<string, unknown>;
    const h = await page.evaluate(() => window.__terrawheel!.selectedContact!);
    expect(json.format).toBe('terrawheel-contact/1');
    expect(json.scenario).toBe('Rolling hills');
    expect(json.index).toBe(h.index);
    expect(json.step).toBe(h.step);
    expect(json.point_m).toEqual(h.point);
    expect(json.depth_m).toBe(h.depth);
    expect(json.bodyB).toBe('terrain');
    expect(problems).toEqual([]);
  });
});

test('a scenario chosen while paused runs (it does not stay silently paused)', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page, 1280, 800);
  await page.keyboard.press('Space');
  await expect.poll(() => page.evaluate(() => window.__terrawheel?.paused)).toBe(true);
  const loads = await page.evaluate(() => window.__terrawheel!.loads);
  await page.locator('#scenario-menu').selectOption('scenarios/curbs.json');
  await expect.poll(() => page.evaluate(() => window.__terrawheel!.loads)).toBe(loads + 1);
  expect(await page.evaluate(() => window.__terrawheel?.paused)).toBe(false);
  await stepsAdvance(page, 20);
  await expect(page.locator('#btn-pause')).toHaveText('Pause');
  expect(problems).toEqual([]);
});
