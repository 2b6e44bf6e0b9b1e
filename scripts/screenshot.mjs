#!/usr/bin/env node
/**
 * Regenerates the README's screenshot (docs/images/terrawheel.png): the web build of the default
 * scenario in headless Chromium, after the rover has driven a few seconds, paused, so that the
 * terrain, the rover and its contact markers are in view.
 *
 *   npm run build:web && node scripts/screenshot.mjs [--out PATH] [--camera chase|orbit|top|wheel]
 *       [--steps N] [--size WxH] [--zoom DY] [--orbit DX] [--select NAME]
 *
 * --zoom scrolls the mouse wheel over the 3D view (negative: closer), --orbit drags across it by DX
 * pixels, --select clicks a body in the Entities tree (a selected wheel's contacts are drawn large).
 * The defaults give the committed picture.
 *
 * Browser: /usr/bin/chromium (or CHROMIUM=path) with software GL (SwiftShader), as the e2e tests
 * (playwright.config.ts). The web build is served by scripts/serve-web.mjs on a free port. The
 * script waits on the app's state (the test hook's step counter and frames drawn), never on time.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const k = process.argv.indexOf(name);
  return k >= 0 ? process.argv[k + 1] : fallback;
};
const out = resolve(arg('--out', join(repo, 'docs/images/terrawheel.png')));
const camera = arg('--camera', 'chase');
const steps = Number(arg('--steps', '960')); // 4 s of simulated time at the default 1/240 s step
const [width, height] = arg('--size', '1440x900').split('x').map(Number);
const zoom = Number(arg('--zoom', '-500'));
const orbit = Number(arg('--orbit', '260'));
const select = arg('--select', 'rover/wheel_fl');
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(join(repo, 'dist/web/index.html'))) {
  console.error('screenshot: no web build in dist/web; run "npm run build:web" first');
  process.exit(2);
}
if (!existsSync(executablePath)) {
  console.error(`screenshot: no Chromium at ${executablePath} (apt-get install -y chromium, or set CHROMIUM)`);
  process.exit(2);
}

const server = spawn(process.execPath, [join(repo, 'scripts/serve-web.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolveUrl, reject) => {
  let text = '';
  server.stdout.on('data', (chunk) => {
    text += chunk;
    const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(text);
    if (m) resolveUrl(m[0]);
  });
  server.on('exit', (code) => reject(new Error(`serve-web exited (${code})`)));
});

const browser = await chromium.launch({
  executablePath,
  args: ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(url);
  await page.waitForFunction(() => window.__terrawheel?.ready === true, null, { timeout: 0 });
  if (camera !== 'chase') await page.locator('#camera-menu').selectOption(camera);
  await page.waitForFunction((n) => (window.__terrawheel?.lastFrame?.step ?? 0) >= n, steps, { timeout: 0, polling: 250 });
  await page.keyboard.press('Space'); // pause: the picture shows one step's contacts
  const view = await page.locator('canvas').first().boundingBox();
  if (view && (zoom !== 0 || orbit !== 0)) {
    const cx = view.x + view.width / 2, cy = view.y + view.height / 2;
    await page.mouse.move(cx, cy);
    if (zoom !== 0) await page.mouse.wheel(0, zoom);
    if (orbit !== 0) {
      await page.mouse.down();
      await page.mouse.move(cx + orbit, cy, { steps: 10 });
      await page.mouse.up();
    }
  }
  if (select) await page.getByText(select + ' (', { exact: false }).first().click();
  await page.waitForFunction(() => window.__terrawheel?.paused === true, null, { timeout: 0 });
  // let the view catch up with the paused frame and the terrain chunks under the rover arrive
  const drawn = await page.evaluate(() => window.__terrawheel.framesRendered);
  await page.waitForFunction((k) => window.__terrawheel.framesRendered > k + 30 && window.__terrawheel.terrainStride <= 1, drawn, { timeout: 0, polling: 250 });
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`screenshot: ${out} (${Math.round(statSync(out).size / 1024)} KB)`);
} finally {
  await browser.close();
  server.kill();
}
