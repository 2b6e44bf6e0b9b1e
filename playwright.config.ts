/**
 * End-to-end tests of the web build in Chromium (test/e2e/*.spec.ts).
 *
 * Browser: Playwright's own Chromium when its executable exists, else the system /usr/bin/chromium
 * (Debian package), else a clear error. Software GL (SwiftShader through ANGLE): no GPU needed.
 * Never downloads a browser.
 *
 * Server: a fresh `npm run build:web`, then scripts/serve-web.mjs on a free port; the port is read
 * from the server's first line into TERRAWHEEL_WEB_PORT. Set TERRAWHEEL_WEB_PORT yourself to test an
 * already running server instead (no build, no server started).
 */
import { existsSync } from 'node:fs';
import { chromium, defineConfig } from '@playwright/test';

function chromiumExecutable(): string {
  let bundled = '';
  try {
    bundled = chromium.executablePath();
  } catch {
    // no bundled browser registered
  }
  if (bundled && existsSync(bundled)) return bundled;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error(
    'No Chromium for the e2e tests: Playwright\'s bundled browser is absent and /usr/bin/chromium does not exist. ' +
      'Install the system package (apt-get install -y chromium); this project never runs "npx playwright install".',
  );
}

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  // One browser at a time: the app runs a simulation worker and software GL, and two of them on
  // a 2-core machine only slow each other down.
  workers: 1,
  // Never retried: a flaky test is fixed (it waits on the app's state, test/e2e/wait.ts), not rerun.
  retries: 0,
  // Failure backstops, not budgets: every wait is on state (a step count, a drawn-chunk count), and
  // these only bound how long a broken app hangs a test. A loaded machine stays well inside them.
  timeout: 300_000,
  expect: { timeout: 90_000 },
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
    browserName: 'chromium',
    viewport: { width: 960, height: 640 },
    launchOptions: {
      executablePath: chromiumExecutable(),
      args: [
        '--use-gl=angle',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: process.env.TERRAWHEEL_WEB_PORT ? undefined : {
    command: 'npm run build:web && node scripts/serve-web.mjs --port 0',
    wait: { stdout: /TerraWheel web app: http:\/\/127\.0\.0\.1:(?<terrawheel_web_port>\d+)\// },
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
