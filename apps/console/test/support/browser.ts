import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ensureConsoleBuilt } from '../../build.mjs';
import { launchChromium } from './chromium';

/** Where screenshots go when `CONSOLE_SCREENSHOTS=1` (docs/console.md); a plain test run writes none. */
export const SCREENSHOTS = fileURLToPath(new URL('../../../../docs/console/', import.meta.url));
const TAKE_SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';
/** Generous: the machine running the suite may be busy. */
export const UI_TIMEOUT_MS = 20_000;

const AXE_SOURCE = readFileSync(join(createRequire(import.meta.url).resolve('axe-core'), '..', 'axe.min.js'), 'utf8');

/** One browser per test file; the console built first (a no-op when it is up to date). */
export async function launchBrowser(): Promise<Browser> {
  await ensureConsoleBuilt();
  return launchChromium();
}

/**
 * A page that fails the test on a script error or a CSP violation (both reach the console
 * as errors), with Playwright's auto-waiting given generous time.
 */
export async function openPage(browser: Browser, baseUrl: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // Failed requests the tests cause on purpose (401, 403, 404…) are logged by Chromium too.
    if (message.type() === 'error' && !/the server responded with a status of (4\d\d)/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  return { page, problems };
}

export async function signInWithKey(page: Page, key: string): Promise<void> {
  await page.goto('/console');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
}

/** axe-core run in the page: the serious and critical violations, by rule and target. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Expressions as strings: these tests are typed for Node, not the DOM.
  const injected = await page.evaluate<boolean>("typeof window.axe !== 'undefined'");
  // Evaluated over the DevTools protocol: an injected <script> would be refused by the CSP.
  if (!injected) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<{ id: string; impact: string | null; targets: string[] }[]>(
    `window.axe.run(document).then((result) => result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.map((node) => JSON.stringify(node.target)) })))`,
  );
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.targets.join(', ')}`);
}

/** Accessibility check of a screen, and its screenshot when asked for (CONSOLE_SCREENSHOTS=1). */
export async function checkScreen(page: Page, name: string | null): Promise<void> {
  expect(await seriousViolations(page), `axe on ${page.url()}`).toEqual([]);
  if (name && TAKE_SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}
