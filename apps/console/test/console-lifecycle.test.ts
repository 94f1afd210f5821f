import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf } from '../../api/test/support/http';
import { startTestServer, type TestServer } from '../../api/test/support/server';
import { createTenant, type TestTenant, type TestUser } from '../../api/test/support/tenants';
import { checkScreen, launchBrowser, openPage, signInWithKey } from './support/browser';

/**
 * Issue 42 in the console: a memory's versions, pin and expiry on its page; superseded,
 * pinned and expiring memories in the list; what a save says about duplicates and similar
 * memories; the org's retention settings.
 */
let server: TestServer;
let browser: Browser;
let tenant: TestTenant;
let page: Page;
const problems: string[][] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  tenant = await createTenant(server.services, server.url, 'Lifecycle console org');
  const opened = await openPage(browser, server.url);
  page = opened.page;
  problems.push(opened.problems);
  await signInWithKey(page, tenant.owner.key);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const save = async (user: TestUser, body: { content: string; supersedes?: string[]; pinned?: boolean; ttl_seconds?: number }) =>
  bodyOf(await user.api.post('/v1/memory', { body }), 201);
const memoryOf = async (id: string) => bodyOf(await tenant.owner.api.get(`/v1/memory/${id}`), 200);

/** Three versions of one fact, oldest first. */
async function chain(word: string) {
  const first = await save(tenant.owner, { content: `The ${word} build runs on Node 18` });
  const second = await save(tenant.owner, { content: `The ${word} build runs on Node 20`, supersedes: [first.id] });
  const third = await save(tenant.owner, { content: `The ${word} build runs on Node 22`, supersedes: [second.id] });
  return [first, second, third] as const;
}

async function openMemory(id: string) {
  await page.goto(`/console/memories/${id}`);
  await page.getByRole('heading', { name: 'Memory', level: 1 }).waitFor();
}

describe('a memory’s page', () => {
  it('says an older version is superseded, lists the history newest first, links to the newer versions; deleting the newest deletes them all', async () => {
    const [first, second, third] = await chain('harbour');
    await openMemory(first.id);
    const notice = page.getByText('This version is not current.');
    await notice.waitFor();
    const history = page.getByRole('list', { name: 'History' });
    await expect.poll(() => history.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/Node 22.*current/),
      expect.stringContaining('Node 20'),
      expect.stringMatching(/Node 18.*this version/),
    ]);
    expect(await history.getByRole('link', { name: 'The harbour build runs on Node 18' }).getAttribute('aria-current')).toBe('page');
    expect(await history.locator('[aria-current="page"]').count()).toBe(1);
    // A replaced version is never given to agents: nothing to pin.
    expect(await page.getByRole('button', { name: 'Pin' }).count()).toBe(0);
    await checkScreen(page, 'memory-history');

    // "Superseded by" names the memory that replaced this one, and opens it.
    await page.getByText('Superseded by').getByRole('link', { name: 'The harbour build runs on Node 20' }).click();
    await page.waitForURL(`**/console/memories/${second.id}`);
    await page.getByText('Superseded by').waitFor();
    expect(await history.getByRole('link', { name: 'The harbour build runs on Node 20' }).getAttribute('aria-current')).toBe('page');

    await history.getByRole('link', { name: 'The harbour build runs on Node 22' }).click();
    await page.waitForURL(`**/console/memories/${third.id}`);
    await page.getByRole('button', { name: 'Pin' }).waitFor();
    expect(await page.getByText('This version is not current.').count()).toBe(0);
    expect(await history.getByRole('link', { name: 'The harbour build runs on Node 22' }).getAttribute('aria-current')).toBe('page');

    // Deleting the newest version deletes the chain, and the dialog says so.
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this memory?' });
    await dialog.getByText('are its 2 older versions').waitFor();
    await dialog.getByRole('button', { name: 'Delete memory' }).click();
    await page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
    for (const version of [first, second, third]) expect((await tenant.owner.api.get(`/v1/memory/${version.id}`)).status).toBe(404);
  });

  it('shows no history for a memory with one version', async () => {
    const single = await save(tenant.owner, { content: 'The lighthouse key hangs by the door' });
    const history = page.waitForResponse((response) => new URL(response.url()).pathname === `/v1/memory/${single.id}/history`);
    await openMemory(single.id);
    expect((await history).status()).toBe(200);
    await page.getByRole('button', { name: 'Pin' }).waitFor();
    expect(await page.getByRole('heading', { name: 'History' }).count()).toBe(0);
  });

  it('pins and unpins a memory with If-Match, and says when it changed meanwhile', async () => {
    const memory = await save(tenant.owner, { content: 'Standup is at 09:30 in the blue room' });
    await openMemory(memory.id);
    const pin = page.getByRole('button', { name: 'Pin' });
    expect(await pin.getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByText('Pinned', { exact: true }).count()).toBe(0);

    const patched = page.waitForResponse((response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname === `/v1/memory/${memory.id}`);
    await pin.click();
    const pinnedAnswer = await patched;
    expect(pinnedAnswer.request().headers()['if-match']).toMatch(/^"/);
    expect(pinnedAnswer.status()).toBe(200);
    await expect.poll(() => pin.getAttribute('aria-pressed')).toBe('true');
    await page.getByText('Pinned', { exact: true }).waitFor();
    expect((await memoryOf(memory.id)).pinned).toBe(true);
    await checkScreen(page, null);

    // A second change needs no reload: the answer's ETag is the page's. The button shows the
    // change while the request runs; the memory has it once the PATCH has answered.
    const unpinned = page.waitForResponse((response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname === `/v1/memory/${memory.id}`);
    await pin.click();
    await expect.poll(() => pin.getAttribute('aria-pressed')).toBe('false');
    expect((await unpinned).status()).toBe(200);
    expect((await memoryOf(memory.id)).pinned).toBe(false);
    expect(await page.getByText('Pinned', { exact: true }).count()).toBe(0);

    // Changed elsewhere meanwhile: refused (412), said so, and the page shows the other version.
    await tenant.owner.api.patch(`/v1/memory/${memory.id}`, { body: { content: 'Standup is at 10:00 in the blue room' } });
    await pin.click();
    await page.getByRole('alert').filter({ hasText: 'changed this memory meanwhile' }).waitFor();
    await page.getByText('Standup is at 10:00 in the blue room').waitFor();
    expect((await memoryOf(memory.id)).pinned).toBe(false);
    await pin.click();
    await expect.poll(async () => (await memoryOf(memory.id)).pinned).toBe(true);
  });

  it('sets an expiry and clears it again', async () => {
    const memory = await save(tenant.owner, { content: 'The hotel booking code is valid this week' });
    await openMemory(memory.id);
    const expiry = (text: RegExp) => page.getByRole('definition').filter({ hasText: text });
    await expiry(/^never$/).waitFor();
    expect(await page.getByRole('button', { name: 'Never expire' }).count()).toBe(0);

    // Two days from now, in the browser's local time, as the input takes it.
    const local = await page.evaluate<string>(
      `(() => { const at = new Date(Date.now() + 2 * 86400000 + 3600000); const p = (n) => String(n).padStart(2, '0'); return at.getFullYear() + '-' + p(at.getMonth() + 1) + '-' + p(at.getDate()) + 'T' + p(at.getHours()) + ':' + p(at.getMinutes()); })()`,
    );
    const instant = await page.evaluate<string>(`new Date(${JSON.stringify(local)}).toISOString()`);
    await page.getByLabel('Expires at').fill(local);
    await page.getByRole('button', { name: 'Save expiry' }).click();
    await page.getByRole('status').filter({ hasText: 'Expiry saved.' }).waitFor();
    await expiry(/^in 2 days \(/).waitFor();
    expect(new Date((await memoryOf(memory.id)).expires_at!).toISOString()).toBe(instant);
    await checkScreen(page, null);

    await page.getByRole('button', { name: 'Never expire' }).click();
    await page.getByRole('status').filter({ hasText: 'It no longer expires.' }).waitFor();
    expect((await memoryOf(memory.id)).expires_at).toBeNull();
    await expiry(/^never$/).waitFor();
    expect(await page.getByLabel('Expires at').inputValue()).toBe('');

    // A time already past is the API's 400, shown.
    await page.getByLabel('Expires at').fill('2001-01-01T10:00');
    await page.getByRole('button', { name: 'Save expiry' }).click();
    await page.getByRole('alert').waitFor();
    expect((await memoryOf(memory.id)).expires_at).toBeNull();
  });
});

describe('the memories list', () => {
  it('shows superseded memories, marked, in the list and in search only when asked; marks pinned and expiring ones', async () => {
    const [first, , third] = await chain('quarry');
    await save(tenant.owner, { content: 'The quarry gate code is pinned here', pinned: true, ttl_seconds: 3 * 86400 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Memories' }).click();
    const list = page.getByRole('list', { name: 'Memories' });
    const row = (text: string) => list.getByRole('listitem').filter({ has: page.getByRole('link', { name: text }) });
    await row('The quarry build runs on Node 22').waitFor();
    expect(await row('The quarry build runs on Node 18').count()).toBe(0);
    const pinned = row('The quarry gate code is pinned here');
    expect(await pinned.textContent()).toMatch(/Pinned.*expires in 3 days/);
    expect(await row('The quarry build runs on Node 22').textContent()).not.toMatch(/Superseded|Pinned|expires/);

    const listed = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === '/v1/memory' && url.searchParams.get('include_superseded') === 'true';
    });
    await page.getByLabel('Show superseded').check();
    await listed;
    await row('The quarry build runs on Node 18').waitFor();
    expect(await row('The quarry build runs on Node 18').textContent()).toContain('Superseded');
    expect(await row('The quarry build runs on Node 20').textContent()).toContain('Superseded');
    expect(await row('The quarry build runs on Node 22').textContent()).not.toContain('Superseded');
    await checkScreen(page, null);

    const searched = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === '/v1/memory/search' && url.searchParams.get('include_superseded') === 'true';
    });
    await page.getByLabel('Search memories').fill('quarry');
    await searched;
    const versions = page.getByRole('list', { name: 'Search results' }).getByRole('listitem').filter({ hasText: 'The quarry build runs on' });
    await expect.poll(() => versions.count()).toBe(3);
    expect(await versions.filter({ hasText: 'Superseded' }).count()).toBe(2);

    await page.getByLabel('Show superseded').uncheck();
    await expect.poll(() => versions.count()).toBe(1);
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByRole('link', { name: /Node 22/ }).click();
    await page.waitForURL(`**/console/memories/${third.id}`);
    expect(first.id).not.toBe(third.id);
  });

  it('says when a save was a duplicate, linking the memory it was added to, and shows similar memories', async () => {
    await page.goto('/console/memories');
    await page.getByLabel('New memory').fill('The archive bucket lives in eu-west-3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const [existing] = (bodyOf(await tenant.owner.api.get('/v1/memory?limit=1'), 200).memories as { id: string; content: string }[]);
    expect(existing!.content).toBe('The archive bucket lives in eu-west-3');

    // Equal but for case and spacing: nothing new is stored.
    await page.getByLabel('New memory').fill('the  archive bucket lives in EU-WEST-3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const duplicate = page.getByRole('status').filter({ hasText: 'Already saved: added to the existing memory' });
    await duplicate.waitFor();
    expect(await duplicate.getByRole('link', { name: 'The archive bucket lives in eu-west-3' }).getAttribute('href')).toBe(`/console/memories/${existing!.id}`);
    expect((bodyOf(await tenant.owner.api.get('/v1/memory?limit=5'), 200).memories as { content: string }[]).filter((m) => /archive bucket/i.test(m.content))).toHaveLength(1);
    await checkScreen(page, null);

    const old = await save(tenant.owner, { content: 'The payments service deploys every Friday at 17:00 from the release branch' });
    await page.getByLabel('New memory').fill('The payments service deploys every Friday at 18:00 from the release branch');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const similar = page.getByRole('list', { name: /^Similar memories/ });
    await similar.waitFor();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await similar.getByRole('link', { name: old.content }).click();
    await page.waitForURL(`**/console/memories/${old.id}`);
  });
});

describe('org settings', () => {
  it('lets an admin set and clear retention and duplicate merging; a member never sees them', async () => {
    const org = await createTenant(server.services, server.url, 'Retention console org');
    const member = await org.addMember('member');
    const opened = await openPage(browser, server.url);
    problems.push(opened.problems);
    const admin = opened.page;
    await signInWithKey(admin, org.owner.key);
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
    const form = admin.getByRole('form', { name: 'Org settings' });
    await form.waitFor();
    expect(await form.getByLabel('Memory retention (days)').inputValue()).toBe('');
    expect(await form.getByLabel('Workstream retention (days)').inputValue()).toBe('');
    expect(await form.getByLabel('Merge duplicate saves').isChecked()).toBe(true);
    expect(await form.getByLabel('Redact secrets in memories').isChecked()).toBe(true);
    const saveSettings = form.getByRole('button', { name: 'Save settings' });
    expect(await saveSettings.isDisabled()).toBe(true); // nothing changed yet
    await form.scrollIntoViewIfNeeded();
    await checkScreen(admin, 'org-settings');

    await form.getByLabel('Memory retention (days)').fill('30');
    await form.getByLabel('Workstream retention (days)').fill('7');
    await form.getByLabel('Merge duplicate saves').uncheck();
    await saveSettings.click();
    await form.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    expect(bodyOf(await org.owner.api.get('/v1/org'), 200)).toMatchObject({ dedupe_memories: false, memory_retention_days: 30, workstream_retention_days: 7, redact_memory_secrets: true });

    await admin.reload();
    await form.waitFor();
    expect(await form.getByLabel('Memory retention (days)').inputValue()).toBe('30');
    expect(await form.getByLabel('Workstream retention (days)').inputValue()).toBe('7');
    expect(await form.getByLabel('Merge duplicate saves').isChecked()).toBe(false);

    // Empty keeps forever.
    await form.getByLabel('Memory retention (days)').fill('');
    await form.getByLabel('Merge duplicate saves').check();
    await saveSettings.click();
    await form.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    expect(bodyOf(await org.owner.api.get('/v1/org'), 200)).toMatchObject({ dedupe_memories: true, memory_retention_days: null, workstream_retention_days: 7 });

    const asMember = await openPage(browser, server.url);
    problems.push(asMember.problems);
    await signInWithKey(asMember.page, member.key);
    await asMember.page.goto('/console/team');
    await asMember.page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await asMember.page.getByLabel('Memory retention (days)').count()).toBe(0);
    expect(await asMember.page.getByRole('form', { name: 'Org settings' }).count()).toBe(0);
    await Promise.all([admin.context().close(), asMember.page.context().close()]);
  });
});

describe('the pages', () => {
  it('had no script errors and no CSP violations', () => {
    expect(problems.flat()).toEqual([]);
  });
});
