/** Console problems of a page for the e2e tests: its errors and warnings, and uncaught errors. */
import type { Page } from '@playwright/test';

/**
 * Collects console errors and warnings and page errors into the returned list (a test expects
 * it empty); warnings starting with one of `allowedWarnings` are expected and left out.
 */
export function watchConsole(page: Page, allowedWarnings: readonly string[] = []): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' && allowedWarnings.some((a) => m.text().startsWith(a))) return;
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}
