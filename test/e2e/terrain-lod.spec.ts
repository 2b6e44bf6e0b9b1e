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
  terrain: { drawnChunks: number; minStride: number; overviewBytes: number; requests: number; bytesReceived: number; inFlight: number; lastError: string | null; exactTiles: number } | null;
}

const hook = (page: Page): Promise<Hook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as Hook);

test('the default world draws its terrain from an overview and requested patches; cell ranges toggle', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true, null, { timeout: 30_000 });
  // The ground under the followed robot becomes the collision surface (stride 1) once its patch is here.
  await expect.poll(async () => (await hook(page)).terrainStride, { timeout: 15_000 }).toBe(1);
  await expect.poll(async () => (await hook(page)).terrain?.inFlight, { timeout: 15_000 }).toBe(0);
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
  await expect.poll(async () => (await hook(page)).overlaySegments.elements, { timeout: 15_000 }).toBeGreaterThan(0);
  expect((await hook(page)).terrain!.exactTiles).toBeGreaterThan(0);
  // the wheels' cell ranges: off by default, drawn when ticked (four sides per wheel at least)
  expect((await hook(page)).overlaySegments.cellRanges).toBe(0);
  await page.locator('#set-showCellRange').check();
  await expect.poll(async () => (await hook(page)).overlaySegments.cellRanges, { timeout: 15_000 }).toBeGreaterThanOrEqual(16);
  await page.locator('#set-showCellRange').uncheck();
  await expect.poll(async () => (await hook(page)).overlaySegments.cellRanges).toBe(0);
  expect(h.error).toBeNull();
  expect(problems).toEqual([]);
});
