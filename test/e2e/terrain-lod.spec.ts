/**
 * Terrain in chunks (issue #17): the renderer gets an overview and the patches it draws, never
 * the whole grid; the ground under the robot is the exact collision surface; element outlines
 * draw from fetched exact heights; the wheel cell-range overlay toggles from the View settings.
 */
import { expect, test, type Page } from '@playwright/test';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

interface Hook {
  ready: boolean;
  framesRendered: number;
  terrainStride: number;
  error: string | null;
  overlaySegments: { elements: number; cellRanges: number };
  terrain: { drawnChunks: number; wantedChunks: number; waiting: number; minStride: number; overviewBytes: number; requests: number; bytesReceived: number; inFlight: number; lastError: string | null; exactTiles: number } | null;
}

const hook = (page: Page): Promise<Hook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as Hook);

test('the default world draws its terrain from an overview and requested patches; cell ranges toggle', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  // The ground under the followed robot becomes the collision surface (stride 1) once its patch is here.
  await expect.poll(async () => (await hook(page)).terrainStride).toBe(1);
  // The whole selection drawn and no patch outstanding: the drawn-chunk count reached its target
  // (on a loaded machine the chunks are built over more frames, so this only takes longer).
  await expect.poll(async () => {
    const t = (await hook(page)).terrain;
    return t !== null && t.waiting === 0 && t.inFlight === 0 && t.drawnChunks === t.wantedChunks;
  }).toBe(true);
  const h = await hook(page);
  const t = h.terrain!;
  expect(t.lastError).toBeNull();
  expect(t.minStride).toBe(1);
  expect(t.drawnChunks).toBeGreaterThan(4);
  expect(t.overviewBytes).toBeLessThanOrEqual(257 * 257 * 4);
  // hills.png is 601² vertices: every height as float32 would be 1.44 MB
  expect(t.requests).toBeGreaterThan(0);
  expect(t.bytesReceived).toBeLessThan(601 * 601 * 4);
  // element outlines under the contacts, from exact heights fetched around them
  await expect.poll(async () => (await hook(page)).overlaySegments.elements).toBeGreaterThan(0);
  expect((await hook(page)).terrain!.exactTiles).toBeGreaterThan(0);
  // the wheels' cell ranges: off by default, drawn when ticked (four sides per wheel at least)
  expect((await hook(page)).overlaySegments.cellRanges).toBe(0);
  await page.locator('#set-showCellRange').check();
  await expect.poll(async () => (await hook(page)).overlaySegments.cellRanges).toBeGreaterThanOrEqual(16);
  await page.locator('#set-showCellRange').uncheck();
  await expect.poll(async () => (await hook(page)).overlaySegments.cellRanges).toBe(0);
  expect(h.error).toBeNull();
  expect(problems).toEqual([]);
});
