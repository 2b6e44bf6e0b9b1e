/**
 * Inspecting the world (issue #17): picking a contact shows the worker's values for that very
 * step; selecting a wheel in the entity tree highlights its contacts; every bundled scenario
 * opens from the menu; every panel draws something. Screenshots of each panel are kept under
 * test-results/panels/ for review.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { watchConsole } from './console';
import { pixelStats } from './pixels';
import { panelTicks, stepsAdvance } from './wait';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, ContactInfoField } from '../../sim/dynamics/frame-layout';

const port = process.env.TERRAWHEEL_WEB_PORT;
test.use({ baseURL: `http://127.0.0.1:${port ?? 5173}/` });

const SHOTS = 'test-results/panels';

interface Detail {
  index: number;
  step: number;
  bodyA: number;
  bodyB: number;
  point: number[];
  normal: number[];
  depth: number;
  normalImpulse: number;
}

interface Hook {
  ready: boolean;
  paused: boolean;
  framesReceived: number;
  framesRendered: number;
  scenarioName: string | null;
  bodyNames: string[];
  loads: number;
  error: string | null;
  lastFrame: { step: number } | null;
  shownFrame: { step: number; time: number; contacts: number[]; contactInfo: number[] } | null;
  contactsOnScreen: { index: number; x: number; y: number }[];
  selection: string | null;
  selectedContact: Detail | null;
  highlightedContacts: number;
  warnings: string[];
  manifoldScale?: string | null;
  plotTime?: string | null;
  baseOnScreen?: { x: number; y: number } | null;
}

const hook = (page: Page): Promise<Hook> => page.evaluate(() => JSON.parse(JSON.stringify(window.__terrawheel)) as Hook);


async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
}

/** Pauses and waits until no new step arrives over three received frames. */
async function pauseSettled(page: Page): Promise<number> {
  await page.keyboard.press('Space');
  await expect.poll(async () => (await hook(page)).paused).toBe(true);
  let s0 = -1, f0 = 0;
  await expect.poll(async () => {
    const h = await hook(page);
    if (h.shownFrame?.step !== s0 || h.lastFrame?.step !== s0) {
      s0 = h.shownFrame?.step ?? -1;
      f0 = h.framesReceived;
      return false;
    }
    return h.framesReceived - f0 >= 3;
  }, { intervals: [100] }).toBe(true);
  return s0;
}

async function shoot(page: Page, selector: string, name: string, minColors: number): Promise<void> {
  const png = await page.locator(selector).screenshot();
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(`${SHOTS}/${name}.png`, png);
  const stats = await pixelStats(page, png);
  expect(stats.distinctColors, `${name} looks blank`).toBeGreaterThan(minColors);
}

test('pause, click a contact: the inspector shows the worker\'s contact of that step; stepping follows it', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  // Wait until wheels touch (the default world starts just above the ground).
  await expect.poll(async () => (await hook(page)).contactsOnScreen.length).toBeGreaterThan(0);
  await pauseSettled(page);
  const h0 = await hook(page);
  const box = (await page.locator('#view3d').boundingBox())!;
  // A contact whose marker is inside the canvas and not crowded by another one.
  const target = h0.contactsOnScreen.find((c) => c.x > 5 && c.y > 5 && c.x < box.width - 5 && c.y < box.height - 5)!;
  expect(target).toBeTruthy();
  await page.mouse.click(box.x + target.x, box.y + target.y);
  await expect.poll(async () => (await hook(page)).selectedContact?.index ?? -1).toBeGreaterThanOrEqual(0);
  const h1 = await hook(page);
  const d = h1.selectedContact!;
  const f = h1.shownFrame!;
  expect(d.step).toBe(f.step);
  // The picked contact is the one nearest the click on screen (markers can overlap: same pixel).
  const picked = h1.contactsOnScreen.find((c) => c.index === d.index)!;
  expect(Math.hypot(picked.x - target.x, picked.y - target.y)).toBeLessThan(10);
  // The inspector's fields carry the frame's numbers exactly (data-raw) and in text.
  const raw = async (field: string): Promise<number[]> => ((await page.locator(`[data-field="${field}"]`).getAttribute('data-raw')) ?? '').split(' ').map(Number);
  const o = CONTACT_STRIDE * d.index;
  const q = CONTACT_INFO_STRIDE * d.index;
  expect(await raw('point')).toEqual(f.contacts.slice(o, o + 3));
  expect(await raw('normal')).toEqual(f.contacts.slice(o + 3, o + 6));
  expect(await raw('depth')).toEqual([f.contacts[o + 6]]);
  expect(await raw('normalImpulse')).toEqual([f.contacts[o + 7]]);
  expect(await raw('frictionImpulse')).toEqual(f.contacts.slice(o + 8, o + 10));
  expect(await raw('case')).toEqual([f.contactInfo[q + ContactInfoField.Kind]]);
  await expect(page.locator('[data-field="cell"]')).toHaveText(`${f.contactInfo[q + ContactInfoField.CellI]},${f.contactInfo[q + ContactInfoField.CellJ]}`);
  await expect(page.locator('[data-field="bodies"]')).toContainText(h1.bodyNames[f.contactInfo[q + ContactInfoField.BodyA]].split(':')[1]);
  await expect(page.locator('[data-field="element"]')).toHaveText(/rectangle|triangle/);
  await expect(page.locator('[data-field="slip"]')).toHaveText(/\|/);
  expect(h1.highlightedContacts).toBe(1);
  await expect(page.locator('#status')).toContainText('selected contact');
  // The manifold view draws that wheel's patch (its scale bar shows once it has one), then the panels redraw.
  await expect.poll(async () => (await hook(page)).manifoldScale).toBeTruthy();
  await panelTicks(page, 2);
  await shoot(page, '#manifold', 'manifold-view', 8);
  await shoot(page, '#inspector', 'inspector', 8);
  // Step once: the selection follows to the same body pair in the next step.
  await page.keyboard.press('.');
  await expect.poll(async () => (await hook(page)).shownFrame?.step).toBe(f.step + 1);
  await expect.poll(async () => (await hook(page)).selectedContact?.step).toBe(f.step + 1);
  const h2 = await hook(page);
  expect(h2.selectedContact!.bodyA).toBe(d.bodyA);
  expect(h2.selectedContact!.bodyB).toBe(d.bodyB);
  expect(Math.hypot(h2.selectedContact!.point[0] - d.point[0], h2.selectedContact!.point[1] - d.point[1])).toBeLessThan(0.25);
  expect(problems).toEqual([]);
});

test('selecting a wheel in the entity tree highlights its contacts; entity state and panels draw', async ({ page }) => {
  const problems = watchConsole(page);
  await openApp(page);
  await expect.poll(async () => (await hook(page)).contactsOnScreen.length).toBeGreaterThan(0);
  await pauseSettled(page);
  const h0 = await hook(page);
  const f = h0.shownFrame!;
  // the default world's rover (0.2 m wheels on 0.1 m cells) gets no terrain warning
  expect(h0.warnings.filter((w) => w.startsWith('terrain too'))).toEqual([]);
  await expect(page.locator('#warnings')).not.toContainText('terrain too');
  // the plots' time label and the status bar show the same time (the frame on screen)
  await expect.poll(async () => {
    const status = (await page.locator('#status').textContent()) ?? '';
    return [/^t = ([0-9.]+) s/.exec((await hook(page)).plotTime ?? '')?.[1], /\bt ([0-9.]+) s/.exec(status)?.[1]];
  }).toEqual([(h0.shownFrame!.time).toFixed(2), (h0.shownFrame!.time).toFixed(2)]);
  // the wheel with the most contacts in the shown frame
  const per = new Map<number, number>();
  for (let k = 0; k < f.contactInfo.length; k += CONTACT_INFO_STRIDE) {
    const body = f.contactInfo[k + ContactInfoField.BodyA];
    per.set(body, (per.get(body) ?? 0) + 1);
  }
  const [wheel, count] = [...per].filter(([b]) => h0.bodyNames[b].startsWith('wheel:')).sort((a, b) => b[1] - a[1])[0];
  await page.locator(`[data-entity="body:${wheel}"]`).click();
  await expect.poll(async () => (await hook(page)).highlightedContacts).toBe(count);
  await expect(page.locator(`[data-entity="body:${wheel}"]`)).toHaveClass(/selected/);
  // The manifold view draws the wheel's patch; its scale bar follows the length unit.
  await expect.poll(async () => (await hook(page)).manifoldScale).toMatch(/^\d+(\.\d+)? m$/);
  await page.locator('#set-units-length').selectOption('mm');
  await expect.poll(async () => (await hook(page)).manifoldScale).toMatch(/^\d+(\.\d+)? mm$/);
  await page.locator('#set-units-length').selectOption('m');
  await expect(page.locator('[data-testid="entity-state"]')).toContainText('roll pitch yaw');
  await expect(page.locator('[data-testid="entity-state"]')).toContainText('velocity m/s');
  // a joint: angle, speed, torque
  await page.locator('[data-entity^="joint:"]').first().click();
  await expect(page.locator('[data-testid="entity-state"]')).toContainText('torque N·m');
  // clicking the chassis in the 3D view selects it in the tree
  const base = h0.bodyNames.findIndex((n) => n.startsWith('chassis:'));
  const view = (await page.locator('#view3d').boundingBox())!;
  const at = (await hook(page)).baseOnScreen!;
  expect(at).toBeTruthy();
  await page.mouse.click(view.x + at.x, view.y + at.y);
  await expect(page.locator(`[data-entity="body:${base}"]`)).toHaveClass(/selected/);
  await expect.poll(async () => (await hook(page)).selection).toBe(`body ${h0.bodyNames[base].split(':')[1]}`);
  // clicking the ground between the camera and the robot (below and right of it, clear of the
  // warnings at the bottom left and the world axes) selects a terrain cell
  await page.mouse.click(view.x + Math.min(view.width - 20, at.x + view.width / 4), view.y + Math.min(view.height - 60, at.y + view.height / 6));
  await expect.poll(async () => (await hook(page)).selection).toMatch(/^terrain cell \d+,\d+$/);
  await expect(page.locator('#status')).toContainText('terrain cell');
  await page.locator(`[data-entity="body:${base}"]`).click();
  await expect(page.locator(`[data-entity="body:${base}"]`)).toHaveClass(/selected/);
  // a manifold row expands into one row per contact (its n column) and collapses again
  const manifoldRow = page.locator('#inspector tr.manifold').first();
  const n = Number(await manifoldRow.locator('td').nth(3).textContent());
  expect(n).toBeGreaterThan(0);
  await manifoldRow.locator('button.expand').click();
  await expect(page.locator('#inspector tr.contact-row')).toHaveCount(n);
  await page.locator('#inspector tr.manifold').first().locator('button.expand').click();
  await expect(page.locator('#inspector tr.contact-row')).toHaveCount(0);
  // x-ray, AABBs, axes, element outlines on; normals by force; a plotted series per wheel
  for (const id of ['#set-xray', '#set-showAabbs', '#set-showAxes']) await page.locator(id).check();
  await page.locator('#set-normalScale').selectOption('force');
  await page.locator('details[data-panel="plots"] summary').click();
  await page.locator(`[data-series="wheel:${wheel}:force"]`).check();
  await page.keyboard.press('Space'); // run 300 steps so the plot fills
  await stepsAdvance(page, 300);
  await panelTicks(page, 2);
  await page.keyboard.press('Space');
  const stored = await page.evaluate(() => localStorage.getItem('terrawheel.ui.v1'));
  expect(JSON.parse(stored!)).toMatchObject({ xray: true, showAabbs: true, normalScale: 'force' });
  expect(JSON.parse(stored!).plots).toContain(`wheel:${wheel}:force`);
  await shoot(page, '#view3d', 'view3d', 50);
  await shoot(page, '#entities', 'entities', 4);
  await shoot(page, '#settings', 'settings', 4);
  await shoot(page, '#panel', 'plots', 8);
  await shoot(page, '#status', 'status', 3);
  // settings survive a reload
  await page.reload();
  await page.waitForFunction(() => window.__terrawheel?.ready === true);
  await expect(page.locator('#set-xray')).toBeChecked();
  await expect(page.locator('#set-normalScale')).toHaveValue('force');
  expect(problems).toEqual([]);
});

test('every bundled scenario opens from the menu; reset starts the world again', async ({ page }) => {
  test.setTimeout(900_000); // a backstop: eleven loads one after another
  const problems = watchConsole(page);
  await openApp(page);
  const options = await page.locator('#scenario-menu option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v));
  expect(options.length).toBeGreaterThanOrEqual(9);
  expect(options.some((o) => o.includes('robot-'))).toBe(true);
  for (const path of options) {
    const loads = (await hook(page)).loads;
    await page.locator('#scenario-menu').selectOption(path);
    await expect.poll(async () => (await hook(page)).loads, { message: path }).toBe(loads + 1);
    const h = await hook(page);
    expect(h.error, path).toBeNull();
    await page.waitForFunction(() => (window.__terrawheel?.lastFrame?.step ?? 0) > 5);
    const name = path.replace(/^scenarios\//, '').replace(/\.json$/, '');
    if (name.startsWith('robot-')) await shoot(page, '#view3d', `scenario-${name}`, 30);
  }
  // Reset: the same world again from step 0
  const before = await hook(page);
  await page.locator('#btn-reset').click();
  await expect.poll(async () => (await hook(page)).loads).toBe(before.loads + 1);
  expect((await hook(page)).scenarioName).toBe(before.scenarioName);
  expect(problems).toEqual([]);
});
