import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../build.mjs';
import { startTestServer, type TestServer } from '../../api/test/support/server';
import { createTenant, type TestTenant } from '../../api/test/support/tenants';
import { launchBrowser, openPage, signInWithKey } from './support/browser';

const INITIAL_JS_BUDGET_BYTES = 200 * 1024;
const MEMORIES = 2_000;
const USABLE_WITHIN_MS = 1_000;

let server: TestServer;
let browser: Browser;
let tenant: TestTenant;
let page: Page;
let problems: string[];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  tenant = await createTenant(server.services, server.url, 'Budget org');
  const principal = (await server.services.authentication.authenticate(tenant.owner.key, 'seed'))!;
  const words = ['invoice', 'deploy', 'rotation', 'latency', 'billing', 'gateway', 'cache', 'schema'];
  for (let start = 0; start < MEMORIES; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, MEMORIES - start) }, (_, offset) => {
        const i = start + offset;
        return server.services.memory.create(principal, { content: `Note ${i}: the ${words[i % words.length]} work of week ${i % 52}`, tags: [`t${i % 10}`] }, 'api');
      }),
    );
  }
  ({ page, problems } = await openPage(browser, server.url));
  await signInWithKey(page, tenant.owner.key);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('console budgets', () => {
  it(`loads at most ${INITIAL_JS_BUDGET_BYTES / 1024} KB of JavaScript (gzipped) up front`, async () => {
    const build = await ensureConsoleBuilt();
    const html = readFileSync(join(build, 'index.html'), 'utf8');
    // Everything the page loads before it runs: its module scripts and modulepreloads.
    const initial = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/console\/([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(initial.length).toBeGreaterThan(0);
    const gzipped = initial.reduce((total, file) => total + gzipSync(readFileSync(join(build, file))).length, 0);
    console.log(`console initial JavaScript: ${(gzipped / 1024).toFixed(1)} KB gzipped in ${initial.length} file(s)`);
    expect(gzipped).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });

  it(`makes the memories screen usable within ${USABLE_WITHIN_MS} ms of navigation with ${MEMORIES} memories`, async () => {
    // Usable: the first page of memories listed and the search box ready. The budget is
    // checked on the page's main-thread time (Chromium's TaskDuration: parsing, running the
    // app, rendering), which a busy machine does not inflate; the wall-clock time since the
    // navigation started is reported and only held to a generous bound. Five loads: the median
    // main-thread time counts (a renderer swapped mid-navigation can undercount one load).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const mainThreadMs = async () => 1000 * ((await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0);
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let run = 0; run < 5; run++) {
      const before = await mainThreadMs();
      await page.goto('/console/memories');
      // A function, not a string: the console's CSP forbids eval, which a string would need.
      const handle = await page.waitForFunction(
        () => {
          const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number }; getElementById(id: string): { disabled?: boolean } | null } }).document;
          return doc.querySelectorAll('li.memory').length >= 50 && doc.getElementById('memory-search')?.disabled === false && performance.now();
        },
        undefined,
        { polling: 'raf' },
      );
      wall.push(Math.round((await handle.jsonValue()) as number));
      const after = await mainThreadMs();
      // A navigation may start a fresh renderer, whose count starts again from 0.
      cpu.push(Math.round(after >= before ? after - before : after));
    }
    await cdp.detach();
    console.log(`memories screen usable: main thread ${cpu.join(', ')} ms; wall clock ${wall.join(', ')} ms`);
    const median = [...cpu].sort((a, b) => a - b)[2]!;
    expect(median).toBeLessThanOrEqual(USABLE_WITHIN_MS);
    expect(Math.min(...wall)).toBeLessThanOrEqual(5 * USABLE_WITHIN_MS);
  });

  it('debounces search while typing', async () => {
    const queries: string[] = [];
    const record = (route: Route) => {
      queries.push(new URL(route.request().url()).searchParams.get('q') ?? '');
      return route.continue();
    };
    await page.route('**/v1/memory/search?*', record);
    const box = page.getByLabel('Search memories');
    const word = 'rotationlatency';
    await box.pressSequentially(word);
    await page.getByRole('heading', { name: /results?$/ }).waitFor();
    await page.unroute('**/v1/memory/search?*', record);
    console.log(`search requests while typing ${word.length} characters: ${queries.length}`);
    expect(queries.at(-1)).toBe(word);
    // One request per pause, not per keystroke.
    expect(queries.length).toBeLessThan(word.length / 3);
    await box.fill('');
  });

  it('never shows an older query’s results after a newer one’s', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let heldSettled!: Promise<unknown>;
    let heldArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (heldArrived = resolve));
    await page.route('**/v1/memory/search?*', async (route) => {
      if (new URL(route.request().url()).searchParams.get('q') !== 'invoice') return route.continue();
      // The older query's answer comes last, and says something the newer one cannot.
      heldArrived();
      heldSettled = released.then(() =>
        route
          .fulfill({
            status: 200,
            contentType: 'application/json',
            body: JSON.stringify({
              results: [
                {
                  id: 'mem_STALE',
                  scope: 'user',
                  source: 'api',
                  content: 'STALE invoice answer',
                  tags: [],
                  contexts: [],
                  created_at: new Date().toISOString(),
                  updated_at: new Date().toISOString(),
                  score: 1,
                  match: { terms: ['invoice'], phrases: [], highlights: [] },
                },
              ],
            }),
          })
          .catch(() => 'aborted'),
      );
      await heldSettled;
    });
    const box = page.getByLabel('Search memories');
    await box.fill('invoice');
    await arrived;
    await box.fill('gateway');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByText(/gateway work/).first().waitFor();
    release();
    await heldSettled;
    // Let any render the late answer could cause happen before looking.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    expect(await page.getByText('STALE invoice answer').count()).toBe(0);
    expect(await results.getByText(/gateway work/).count()).toBeGreaterThan(0);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  it('had no script errors', () => {
    expect(problems).toEqual([]);
  });
});
