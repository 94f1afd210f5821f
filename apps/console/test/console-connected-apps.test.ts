import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf } from '../../api/test/support/http';
import { startTestServer, type TestServer } from '../../api/test/support/server';
import { createTenant, type TestTenant, type TestUser } from '../../api/test/support/tenants';
import { checkScreen, launchBrowser, openPage, signInWithKey } from './support/browser';
import { appsOfSuite, connectApp } from './support/oauth';

let server: TestServer;
let browser: Browser;
let tenant: TestTenant;
let member: TestUser;
let other: TestUser;
const apps = appsOfSuite();
const problems: string[][] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ ownPublicUrl: true }), launchBrowser()]);
  tenant = await createTenant(server.services, server.url, 'Connected apps org');
  [member, other] = await Promise.all([tenant.addMember('member'), tenant.addMember('member')]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await apps.closeAll();
});

/** A fresh browser tab (no credential of an earlier test) signed in with `key`, on Connected apps. */
async function connectedAppsAs(user: TestUser): Promise<Page> {
  const opened = await openPage(browser, server.url);
  problems.push(opened.problems);
  await signInWithKey(opened.page, user.key);
  await opened.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connected apps' }).click();
  await opened.page.getByRole('heading', { name: 'Connected apps', level: 1 }).waitFor();
  return opened.page;
}

const emailOf = async (user: TestUser) => (bodyOf(await tenant.owner.api.get('/v1/org/members'), 200).members as { id: string; email: string }[]).find((m) => m.id === user.userId)!.email;
const grantsOf = async (user: TestUser) => bodyOf(await user.api.get('/v1/oauth/grants'), 200).grants;

describe('Connected apps', () => {
  it('lists a member’s apps and revokes one: the grant is gone and its token refused', async () => {
    const [kept, revoked] = await Promise.all([apps.register(server.url, 'Kept notebook'), apps.register(server.url, 'Revoked notebook')]);
    await connectApp(server.url, member.key, kept);
    const tokens = await connectApp(server.url, member.key, revoked);
    const page = await connectedAppsAs(member);
    const table = page.getByRole('table', { name: 'Your connected apps' });
    const row = table.getByRole('row', { name: /Revoked notebook/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('memory:read, memory:write');
    expect(await row.textContent()).toContain(revoked.clientId);
    await table.getByRole('row', { name: /Kept notebook/ }).waitFor();
    await checkScreen(page, 'connected-apps');

    await page.getByRole('button', { name: 'Revoke Revoked notebook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Revoked notebook?' });
    await checkScreen(page, null);
    await dialog.getByRole('button', { name: 'Revoke access' }).click();
    await expect.poll(() => row.count()).toBe(0);
    await table.getByRole('row', { name: /Kept notebook/ }).waitFor();
    expect((await grantsOf(member)).map((grant) => grant.client_id)).toEqual([kept.clientId]);
    // The app's token stops working with its grant.
    const mcp = await fetch(`${server.url}/mcp/oauth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
  });

  it('shows a member their own apps only, and no way to see the org’s', async () => {
    await connectApp(server.url, other.key, await apps.register(server.url, 'Someone else’s assistant'));
    const fresh = await tenant.addMember('member');
    const page = await connectedAppsAs(fresh);
    await page.getByText('No connected apps yet').waitFor();
    await page.getByText(`${server.url}/mcp/oauth`).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Everyone in the org' }).count()).toBe(0);
    expect(await page.getByText('Someone else’s assistant').count()).toBe(0);
    await checkScreen(page, 'connected-apps-empty');
    // Nor does the API answer a member the org's.
    expect((await fresh.api.get('/v1/oauth/grants?all=true')).status).toBe(403);
  });

  it('lets an admin see and revoke another member’s app with Everyone in the org', async () => {
    const app = await apps.register(server.url, 'Team assistant');
    await connectApp(server.url, other.key, app);
    const email = await emailOf(other);
    const page = await connectedAppsAs(tenant.owner);
    expect(await page.getByRole('row', { name: /Team assistant/ }).count()).toBe(0); // the admin's own, first
    const asksAll = page.waitForRequest((request) => new URL(request.url()).pathname === '/v1/oauth/grants' && new URL(request.url()).searchParams.get('all') === 'true');
    await page.getByRole('checkbox', { name: 'Everyone in the org' }).check();
    await asksAll;
    const row = page.getByRole('table', { name: 'Connected apps in the org' }).getByRole('row', { name: /Team assistant/ });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(email);
    await checkScreen(page, null);

    await row.getByRole('button', { name: `Revoke Team assistant for ${email}` }).click();
    await page.getByRole('dialog', { name: `Revoke Team assistant for ${email}?` }).getByRole('button', { name: 'Revoke access' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await grantsOf(other)).map((grant) => grant.client_id)).not.toContain(app.clientId);

    // The audit log names both: the grant and its revocation.
    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    for (const action of ['oauth.grant', 'oauth.revoke']) {
      await page.getByLabel('Action').selectOption(action);
      await page.getByRole('row', { name: new RegExp(`${action.replace('.', '\\.')}.*oauth_grant`) }).first().waitFor();
    }
  });

  it('had no script errors and no CSP violations', () => {
    expect(problems.flat()).toEqual([]);
  });
});
