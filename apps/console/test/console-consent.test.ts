import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf } from '../../api/test/support/http';
import { startTestServer, type TestServer } from '../../api/test/support/server';
import { createTenant, type TestTenant, type TestUser } from '../../api/test/support/tenants';
import { checkScreen, launchBrowser, openPage } from './support/browser';
import { appsOfSuite, authorizationRequest, connectApp, redeemCode, type TestApp } from './support/oauth';

let server: TestServer;
let browser: Browser;
let tenant: TestTenant;
let member: TestUser;
const apps = appsOfSuite();
const problems: string[][] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ ownPublicUrl: true }), launchBrowser()]);
  tenant = await createTenant(server.services, server.url, 'Consent org');
  member = await tenant.addMember('member');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await apps.closeAll();
});

/** A fresh tab, signed in to nothing. */
async function freshPage(): Promise<Page> {
  const opened = await openPage(browser, server.url);
  problems.push(opened.problems);
  return opened.page;
}

/** Starts the app's authorization in the tab and signs in with `key` where the console asks. */
async function authorizeSigningIn(page: Page, app: TestApp, key: string) {
  const request = authorizationRequest(server.url, app);
  await page.goto(request.url);
  await page.waitForURL(/\/console\/authorize\/[^/]+$/);
  await page.getByText('An app asks to connect to your Memory Bank.').waitFor();
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: `Allow ${app.name} to use your Memory Bank?`, level: 1 }).waitFor();
  return request;
}

/** Where the browser ended: the app's redirect URI, with the query the server sent. */
async function backAtApp(page: Page, app: TestApp): Promise<URLSearchParams> {
  await page.waitForURL((url) => url.href.startsWith(app.redirectUri));
  return new URL(page.url()).searchParams;
}

describe('the consent screen', () => {
  it('asks a signed-out person to sign in, shows who asks for what, and Allow sends a code back to the app', async () => {
    const app = await apps.register(server.url, 'Test app');
    const page = await freshPage();
    const request = await authorizeSigningIn(page, app, member.key);
    await page.getByText('Consent org').waitFor();
    await page.getByText(member.email).waitFor();
    const scopes = page.getByRole('list', { name: 'It will be able to' });
    await expect.poll(() => scopes.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('memory:read'), expect.stringContaining('memory:write')]);
    expect(await scopes.textContent()).toContain('Read and search your memories');
    await checkScreen(page, 'consent');

    await page.getByRole('button', { name: 'Allow' }).click();
    const query = await backAtApp(page, app);
    expect(query.get('state')).toBe(request.state);
    expect(query.get('iss')).toBe(`${server.url}/oauth`);
    const tokens = await redeemCode(server.url, app, request.verifier, query.get('code')!);
    expect(tokens.access_token).toBeTruthy();
    // The app is now one of the member's connected apps.
    expect(bodyOf(await member.api.get('/v1/oauth/grants'), 200).grants.map((grant) => grant.client_name)).toContain('Test app');
  });

  it('Deny sends access_denied back to the app and connects nothing', async () => {
    const app = await apps.register(server.url, 'Denied app');
    const page = await freshPage();
    const request = await authorizeSigningIn(page, app, member.key);
    await page.getByRole('button', { name: 'Deny' }).click();
    const query = await backAtApp(page, app);
    expect(query.get('error')).toBe('access_denied');
    expect(query.get('state')).toBe(request.state);
    expect(query.get('code')).toBeNull();
    expect(bodyOf(await member.api.get('/v1/oauth/grants'), 200).grants.map((grant) => grant.client_id)).not.toContain(app.clientId);
  });

  it('does not ask again for an app already allowed these scopes: the console answers for the person', async () => {
    const app = await apps.register(server.url, 'Returning app');
    await connectApp(server.url, member.key, app); // allowed before, from another browser
    const page = await freshPage();
    const request = authorizationRequest(server.url, app);
    await page.goto(request.url);
    await page.getByLabel('API key').fill(member.key);
    const decided = page.waitForResponse((answer) => answer.request().method() === 'POST' && /^\/oauth\/interaction\/[^/]+\/consent$/.test(new URL(answer.url()).pathname));
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await decided).status()).toBe(200);
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    const query = await backAtApp(page, app);
    expect(query.get('state')).toBe(request.state);
    await redeemCode(server.url, app, request.verifier, query.get('code')!);
  });

  it('says when the signed-in key can give none of what the app asks for, and the app is refused', async () => {
    const app = await apps.register(server.url, 'Greedy app');
    const hooksOnly = await tenant.keyWithScopes(member, ['hooks:write']);
    const page = await freshPage();
    await authorizeSigningIn(page, app, hooksOnly.key);
    await page.getByText('your account cannot give any of what Greedy app asks for').waitFor();
    expect(await page.getByRole('list', { name: 'It will be able to' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Allow' }).click();
    expect((await backAtApp(page, app)).get('error')).toBe('access_denied');
  });

  it('says so when the request has expired or belongs to another browser', async () => {
    const page = await freshPage();
    await page.goto('/console/authorize/no-such-interaction');
    await page.getByLabel('API key').fill(member.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'This sign-in request has expired or was started in another browser. Start again from the app.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    await checkScreen(page, null);
  });

  it('had no script errors and no CSP violations', () => {
    expect(problems.flat()).toEqual([]);
  });
});
