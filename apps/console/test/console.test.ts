import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../api/test/support/server';
import { claudeSession, newSessionId } from '../../api/test/support/hooks';
import { bodyOf, expectStatus } from '../../api/test/support/http';
import { createTenant, type TestTenant, type TestUser } from '../../api/test/support/tenants';
import { checkScreen, launchBrowser, openPage, signInWithKey } from './support/browser';

let server: TestServer;
let browser: Browser;
let tenant: TestTenant;
let member: TestUser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  tenant = await createTenant(server.services, server.url, 'Console org');
  member = await tenant.addMember('member');
  ({ page, problems } = await openPage(browser, server.url));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('serving /console', () => {
  it('serves the page with a strict CSP, hashed assets as immutable, and deep links as the page', async () => {
    const root = await fetch(`${server.url}/console`);
    expect(root.status).toBe(200);
    const csp = root.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(root.headers.get('cache-control')).toBe('no-cache');
    const page = await root.text();
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const script = page.match(/src="(\/console\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${server.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toContain('text/javascript');

    const deep = await fetch(`${server.url}/console/memories/mem_anything`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(page);
    expect((await fetch(`${server.url}/console/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/console/assets/..%2f..%2fpackage.json`)).status).toBe(404);
  });
});

describe('the console in a browser', () => {
  it('signs in with an API key kept in sessionStorage only', async () => {
    await page.goto('/console');
    await checkScreen(page, 'sign-in');
    await signInWithKey(page, tenant.owner.key);
    expect(page.url()).toBe(`${server.url}/console/memories`);
    expect(page.url()).not.toContain(tenant.owner.key);
    const stored = await page.evaluate<{ session: string; local: string; cookies: string }>('({ session: JSON.stringify(sessionStorage), local: JSON.stringify(localStorage), cookies: document.cookie })');
    expect(stored.session).toContain(tenant.owner.key);
    expect(stored.local).not.toContain(tenant.owner.key);
    expect(stored.cookies).toBe('');
  });

  it('saves, searches with highlights, opens, edits (If-Match) and deletes a memory; content stays text', async () => {
    const hostile = '<img src=x onerror="window.__xss=1"> Deploys go through the orbital pipeline';
    await page.getByLabel('New memory').fill(hostile);
    await page.getByLabel('Tags (comma-separated)', { exact: true }).fill('ops, deploy');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const list = page.getByRole('list', { name: 'Memories' });
    await list.getByText('orbital pipeline').waitFor();
    await checkScreen(page, 'memories');

    await page.getByLabel('Search memories').fill('orbital');
    const results = page.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.locator('mark').allTextContents()).toEqual(['orbital']);
    await checkScreen(page, 'search');
    // A misspelt word is also searched as the owner's nearest word, and the page says so.
    await page.getByLabel('Search memories').fill('orbitel');
    await page.getByText('Also searched for').filter({ hasText: 'orbital' }).waitFor();
    await expect.poll(() => results.locator('mark').allTextContents()).toEqual(['orbital']);
    await page.getByLabel('Search memories').fill('orbital');
    await expect.poll(() => page.getByText('Also searched for').count()).toBe(0);
    // The result's text is the link that opens it.
    await results.getByRole('link', { name: /orbital pipeline/ }).click();
    await page.getByRole('heading', { name: 'Memory', level: 1 }).waitFor();
    await page.getByText('orbital pipeline').waitFor();
    // Rendered as text: the markup is visible, no element was made from it, nothing ran.
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    await checkScreen(page, 'memory');

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Content').fill('Deploys go through the orbital pipeline, twice a day');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    await page.getByText('twice a day').waitFor();
    const id = decodeURIComponent(page.url().split('/').pop()!);
    expect(bodyOf(await tenant.owner.api.get(`/v1/memory/${id}`), 200).content).toBe('Deploys go through the orbital pipeline, twice a day');

    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this memory?' });
    await dialog.waitFor();
    await checkScreen(page, null);
    await dialog.getByRole('button', { name: 'Delete memory' }).click();
    await page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
    expect((await tenant.owner.api.get(`/v1/memory/${id}`)).status).toBe(404);
  });

  it('refuses an edit made over someone else’s change (If-Match)', async () => {
    const saved = bodyOf(await tenant.owner.api.post('/v1/memory', { body: { content: 'The staging database is called nimbus' } }), 201);
    await page.goto(`/console/memories/${saved.id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await tenant.owner.api.patch(`/v1/memory/${saved.id}`, { body: { content: 'The staging database is called cirrus' } });
    await page.getByLabel('Content').fill('The staging database is called stratus');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').filter({ hasText: 'changed this memory meanwhile' }).waitFor();
    expect(bodyOf(await tenant.owner.api.get(`/v1/memory/${saved.id}`), 200).content).toBe('The staging database is called cirrus');
  });

  it('saves a memory with contexts (snippet, citation URL and title) from the form, and opens it from a search result’s text', async () => {
    await page.getByRole('link', { name: 'Memories', exact: true }).click();
    await page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
    await page.getByLabel('New memory').fill('The release train leaves on Thursdays');
    const addContext = page.getByRole('button', { name: 'Add a context' });
    for (let i = 0; i < 3; i++) await addContext.click();
    const first = page.getByRole('group', { name: 'Context 1' });
    await first.getByLabel('Snippet').fill('Agreed at the planning meeting');
    await first.getByLabel('Citation URL (optional)').fill('https://wiki.example.test/planning?week=49');
    await first.getByLabel('Citation title (optional)').fill('Planning notes <b>week 49</b>');
    await page.getByRole('group', { name: 'Context 2' }).getByLabel('Snippet').fill('Mentioned in chat');
    await page.getByRole('group', { name: 'Context 3' }).getByRole('button', { name: 'Remove context 3' }).click();
    expect(await page.getByRole('group', { name: /^Context \d+$/ }).count()).toBe(2);
    await checkScreen(page, null);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await page.getByRole('group', { name: /^Context \d+$/ }).count()).toBe(0); // the form starts afresh

    const listed = bodyOf(await tenant.owner.api.get('/v1/memory?limit=5'), 200).memories as { id: string; content: string; contexts: { snippet: string; citation: unknown }[] }[];
    const saved = listed.find((memory) => memory.content === 'The release train leaves on Thursdays')!;
    expect(saved.contexts.map(({ snippet, citation }) => ({ snippet, citation }))).toEqual([
      { snippet: 'Agreed at the planning meeting', citation: { url: 'https://wiki.example.test/planning?week=49', title: 'Planning notes <b>week 49</b>' } },
      { snippet: 'Mentioned in chat', citation: null },
    ]);

    await page.getByLabel('Search memories').fill('Thursdays');
    const results = page.getByRole('list', { name: 'Search results' });
    const result = results.getByRole('link', { name: 'The release train leaves on Thursdays' });
    await result.waitFor();
    expect(await results.getByRole('link').count()).toBe(1); // the text is the result's one link
    await result.click();
    await page.getByRole('heading', { name: 'Memory', level: 1 }).waitFor();
    expect(page.url()).toBe(`${server.url}/console/memories/${saved.id}`);
    const citation = page.getByRole('list', { name: 'Contexts' }).getByRole('link', { name: 'Planning notes <b>week 49</b>' });
    expect(await citation.getAttribute('href')).toBe('https://wiki.example.test/planning?week=49');
    expect(await citation.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.locator('main b').count()).toBe(0); // the title is text
    await checkScreen(page, null);
  });

  it('shows a citation address that is not http(s) as text, never as a link', async () => {
    const saved = await tenant.owner.api.post('/v1/memory', {
      body: {
        content: 'Citations from odd places',
        contexts: [
          { snippet: 'a script address', citation: { url: 'javascript:window.__xss=2', title: 'Click me' } },
          { snippet: 'a data address', citation: { url: 'data:text/html,<script>window.__xss=3</script>' } },
          { snippet: 'a relative one and more fields', citation: { url: '/elsewhere', page: 12 } },
        ],
      },
    });
    expectStatus(saved, 201);
    await page.goto(`/console/memories/${saved.body.id}`);
    const contexts = page.getByRole('list', { name: 'Contexts' });
    await contexts.getByText('javascript:window.__xss=2').waitFor();
    await contexts.getByText('data:text/html,<script>window.__xss=3</script>').waitFor();
    await contexts.getByText('"page": 12').waitFor();
    expect(await contexts.getByRole('link').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
  });

  it('shows workstreams, their timeline and tool actions; remembers an event; deletes a workstream', async () => {
    const session = newSessionId();
    let workstreamId = '';
    for (const payload of claudeSession(session)) workstreamId = bodyOf(await tenant.owner.api.post('/v1/hooks/claude-code', { body: payload }), 202).workstream_id;
    await page.getByRole('link', { name: 'Workstreams', exact: true }).click();
    await page.getByRole('heading', { name: 'Workstreams', level: 1 }).waitFor();
    await page.getByRole('link', { name: session }).click();
    await page.getByRole('heading', { name: `Workstream ${session}` }).waitFor();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.getByRole('button', { name: /^Remember event/ }).first().waitFor();
    await checkScreen(page, 'workstream');
    await page.getByRole('button', { name: /^Remember event/ }).first().click();
    await page.getByRole('status').filter({ hasText: 'Remembered as' }).waitFor();
    await page.getByRole('link', { name: 'Workstreams', exact: true }).click();
    await checkScreen(page, 'workstreams');

    await page.getByRole('link', { name: session }).click();
    await page.getByRole('button', { name: 'Delete workstream' }).click();
    await page.getByRole('dialog', { name: 'Delete this workstream?' }).getByRole('button', { name: 'Delete workstream' }).click();
    await page.getByRole('heading', { name: 'Workstreams', level: 1 }).waitFor();
    expect((await tenant.owner.api.get(`/v1/workstreams/${workstreamId}`)).status).toBe(404);
  });

  it('exports memories to a file and imports it back (round trip, no duplicates on a second import)', async () => {
    const contents = ['Export me: the Tuesday deploy window', 'Export me too: rotate the signing keys yearly'];
    for (const content of contents) await tenant.owner.api.post('/v1/memory', { body: { content, tags: ['transfer'] } });
    const before = (bodyOf(await tenant.owner.api.get('/v1/memory?scope=user&limit=100'), 200).memories as { id: string; content: string }[]).map((m) => m.content).sort();

    await page.getByRole('link', { name: 'Export / import', exact: true }).click();
    await page.getByRole('heading', { name: 'Export / import', level: 1 }).waitFor();
    await page.getByLabel('Memories to export').selectOption('user');
    await page.getByRole('button', { name: 'Export memories' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download memories.ndjson' }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { content: string }).content).sort()).toEqual(before);
    await checkScreen(page, 'export-import');

    // Empty the account, then bring it back from the file.
    for (const line of lines) await tenant.owner.api.delete(`/v1/memory/${(JSON.parse(line) as { id: string }).id}`);
    expect(bodyOf(await tenant.owner.api.get('/v1/memory?scope=user'), 200).memories).toEqual([]);
    await page.getByLabel('NDJSON file').setInputFiles(file);
    await page.getByRole('button', { name: 'Import memories' }).click();
    await page.getByRole('status').filter({ hasText: `Imported ${lines.length}, skipped 0` }).waitFor();
    const after = (bodyOf(await tenant.owner.api.get('/v1/memory?scope=user&limit=100'), 200).memories as { content: string; tags: string[] }[]).map((m) => m.content).sort();
    expect(after).toEqual(before);

    await page.getByRole('button', { name: 'Import memories' }).click();
    await page.getByRole('status').filter({ hasText: `Imported 0, skipped ${lines.length}` }).waitFor();
    expect(bodyOf(await tenant.owner.api.get('/v1/memory?scope=user&limit=100'), 200).memories).toHaveLength(lines.length);
  });

  it('creates an API key shown once with a copy button, and revokes it', async () => {
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await checkScreen(page, 'api-keys');
    await page.getByLabel('Key name').fill('laptop hooks');
    await page.getByLabel('hooks:write').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByRole('textbox', { name: 'New key' }).inputValue();
    expect(secret).toMatch(/^mbk_/);
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    const made = await fetch(`${server.url}/v1/memory?limit=1`, { headers: { authorization: `Bearer ${secret}` } });
    expect(made.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByRole('textbox', { name: 'New key' }).count()).toBe(0); // shown once

    await page.getByRole('button', { name: 'Revoke laptop hooks' }).click();
    await page.getByRole('dialog', { name: 'Revoke laptop hooks?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('row', { name: /laptop hooks/ }).getByText('revoked').waitFor();
    const after = await fetch(`${server.url}/v1/memory?limit=1`, { headers: { authorization: `Bearer ${secret}` } });
    expect(after.status).toBe(401);
  });

  it('lets an admin purge a member’s memories with a typed confirmation, then find it in the audit log', async () => {
    const memberEmail = bodyOf(await tenant.owner.api.get('/v1/org/members'), 200).members.find((user) => user.id === member.userId)!.email;
    for (const content of ['Member secret one', 'Member secret two']) await member.api.post('/v1/memory', { body: { content } });

    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await checkScreen(page, 'team');
    await page.getByRole('button', { name: `Memories of ${memberEmail}` }).click();
    const panel = page.getByRole('region', { name: `Memories of ${memberEmail}` });
    await expect.poll(() => panel.getByRole('row').count()).toBe(3); // header + 2
    expect(await panel.textContent()).not.toContain('Member secret'); // metadata only
    await panel.getByRole('button', { name: 'Purge all memories' }).click();
    const dialog = page.getByRole('dialog', { name: `Purge all memories of ${memberEmail}?` });
    const confirm = dialog.getByRole('button', { name: 'Purge memories' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/to confirm/).fill(memberEmail);
    await checkScreen(page, null);
    await confirm.click();
    await panel.getByRole('status').filter({ hasText: 'Purged 2 memories' }).waitFor();
    expect(bodyOf(await member.api.get('/v1/memory'), 200).memories).toEqual([]);

    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByLabel('Action').selectOption('member.purge');
    const row = page.getByRole('row', { name: new RegExp(`member\\.purge.*${member.userId}`) });
    await row.waitFor();
    expect(await row.textContent()).toContain('memories: 2');
    await checkScreen(page, 'audit-log');
  });

  it('filters memories (list and search) by source and the audit log by date in the API, not in the loaded pages', async () => {
    const viaMcp = bodyOf(await tenant.owner.api.post('/v1/memory', { body: { content: 'Filed by an agent over MCP' } }), 201);
    await tenant.owner.api.post('/v1/memory', { body: { content: 'Filed over REST' } });
    await server.database.pool.query('UPDATE memory SET source = ? WHERE id = ?', ['mcp', viaMcp.id]);
    const asks = (path: string, name: string, value: string) =>
      page.waitForRequest((request) => {
        const url = new URL(request.url());
        return url.pathname === path && url.searchParams.get(name) === value;
      });

    await page.getByRole('link', { name: 'Memories', exact: true }).click();
    const list = page.getByRole('list', { name: 'Memories' });
    await list.getByText('Filed over REST').waitFor();
    const bySource = asks('/v1/memory', 'source', 'mcp');
    await page.getByLabel('Source').selectOption('mcp');
    await bySource;
    await expect.poll(() => list.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Filed by an agent over MCP')]);
    // The search takes the same filter in the API.
    const searched = asks('/v1/memory/search', 'source', 'mcp');
    await page.getByLabel('Search memories').fill('filed');
    await searched;
    const results = page.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Filed by an agent over MCP')]);
    await page.getByLabel('Search memories').fill('');

    // The browser's local days, as the date inputs take them.
    const day = (offset: number) => {
      const at = new Date();
      at.setDate(at.getDate() + offset);
      return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
    };
    const startOf = (offset: number) => new Date(`${day(offset)}T00:00:00`).toISOString();
    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.getByLabel('Action').selectOption('member.purge');
    const purge = page.getByRole('row', { name: /member\.purge/ });
    await purge.waitFor();
    const since = asks('/v1/admin/audit', 'since', startOf(1));
    await page.getByLabel('From', { exact: true }).fill(day(1));
    await since;
    await page.getByText('No events.').waitFor();
    expect(await purge.count()).toBe(0);
    const until = asks('/v1/admin/audit', 'until', startOf(1));
    await page.getByLabel('From', { exact: true }).fill(day(0));
    await page.getByLabel('To', { exact: true }).fill(day(0));
    await until;
    await purge.waitFor();
    await page.getByLabel('To', { exact: true }).fill(day(-1));
    await page.getByRole('alert').waitFor(); // From after To: the API's 400, shown
  });

  it('lets an admin change a member’s role', async () => {
    const promoted = await tenant.addMember('member');
    const email = (bodyOf(await tenant.owner.api.get('/v1/org/members'), 200).members as { id: string; email: string }[]).find((user) => user.id === promoted.userId)!.email;
    await page.goto('/console/team');
    const role = page.getByLabel(`Role of ${email}`);
    await role.selectOption('admin');
    await expect.poll(async () => (bodyOf(await tenant.owner.api.get('/v1/org/members'), 200).members as { id: string; role: string }[]).find((user) => user.id === promoted.userId)?.role).toBe('admin');
    await role.selectOption('member');
    await expect.poll(async () => (bodyOf(await tenant.owner.api.get('/v1/org/members'), 200).members as { id: string; role: string }[]).find((user) => user.id === promoted.userId)?.role).toBe('member');
    expect(await page.getByLabel(`Role of ${email}`).inputValue()).toBe('member');
  });

  it('pages the memory list with Load more (cursor pages of 50), filters kept', async () => {
    const saved = await Promise.all(
      Array.from({ length: 55 }, (_, i) => tenant.owner.api.post('/v1/memory', { body: { content: `Paged note ${i}`, tags: ['paged'] } })),
    );
    expect(saved.every((res) => res.status === 201)).toBe(true);
    await page.getByRole('link', { name: 'Memories', exact: true }).click();
    const asksTagged = page.waitForRequest((request) => new URL(request.url()).searchParams.get('tag') === 'paged');
    await page.getByLabel('Tag', { exact: true }).fill('paged');
    await asksTagged;
    const list = page.getByRole('list', { name: 'Memories' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(50);
    const nextPage = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.searchParams.get('tag') === 'paged' && url.searchParams.has('cursor');
    });
    await page.getByRole('button', { name: 'Load more' }).click();
    await nextPage;
    await expect.poll(() => list.getByRole('listitem').count()).toBe(55);
    await expect.poll(() => page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  it('signs out and forgets the key', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate<string>('JSON.stringify(sessionStorage)')).not.toContain('mbk_');
  });

  it('never shows a member the admin screens', async () => {
    await signInWithKey(page, member.key);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'API keys' }).waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Memories', 'Workstreams', 'API keys', 'Connected apps', 'Export / import']);
    for (const path of ['/console/team', '/console/audit']) {
      await page.goto(path);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await page.getByRole('heading', { name: /^(Team|Audit log)$/ }).count()).toBe(0);
    }
    await checkScreen(page, null);
  });

  it('had no script errors and no CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
