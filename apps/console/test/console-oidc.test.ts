import { OAuth2Server } from 'oauth2-mock-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../api/test/support/server';
import { bodyOf } from '../../api/test/support/http';
import { createTenant, type TestTenant } from '../../api/test/support/tenants';
import { checkScreen, launchBrowser, openPage } from './support/browser';
import { authorizationRequest, redeemCode, registerApp } from './support/oauth';

const CLIENT_ID = 'memory-bank-console';
const EMAIL = 'oidc-user@example.test';

let provider: OAuth2Server;
let server: TestServer;
let browser: Browser;
let tenant: TestTenant;
let page: Page;
let problems: string[];

beforeAll(async () => {
  // A local OpenID provider: discovery, JWKS, authorization code with PKCE.
  provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  const issuer = provider.issuer.url!;
  [server, browser] = await Promise.all([startTestServer({ ownPublicUrl: true, env: { OIDC_ISSUER: issuer, OIDC_AUDIENCE: CLIENT_ID } }), launchBrowser()]);
  tenant = await createTenant(server.services, server.url, 'OIDC org');
  provider.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, { sub: 'oidc-user-1', org_id: tenant.orgId, email: EMAIL, email_verified: true });
  });
  ({ page, problems } = await openPage(browser, server.url));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await provider?.stop();
});

describe('OIDC sign-in in the console', () => {
  it('signs in with authorization code + PKCE at the configured provider and uses the ID token', async () => {
    const csp = (await fetch(`${server.url}/console`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`connect-src 'self' ${new URL(provider.issuer.url!).origin}`);

    const authorize = page.waitForRequest((request) => request.url().startsWith(`${provider.issuer.url}/authorize`));
    await page.goto('/console');
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    const sent = new URL((await authorize).url());
    expect(sent.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(sent.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(sent.searchParams.get('redirect_uri')).toBe(`${server.url}/console/callback`);

    await page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
    expect(page.url()).toBe(`${server.url}/console/memories`); // the code is gone from the address bar
    const stored = await page.evaluate<string>('JSON.stringify(sessionStorage)');
    expect(stored).toMatch(/eyJ/); // the JWT, in this tab only
    await checkScreen(page, null);

    await page.getByLabel('New memory').fill('Signed in through the identity provider');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('list', { name: 'Memories' }).getByText('Signed in through the identity provider').waitFor();
    // Saved as the member the sign-in created in the org named by the token.
    const members = bodyOf(await tenant.owner.api.get('/v1/org/members'), 200).members as { id: string; email: string; role: string }[];
    const user = members.find((member) => member.email === EMAIL);
    expect(user?.role).toBe('member');
    expect(bodyOf(await tenant.owner.api.get(`/v1/admin/members/${user!.id}/memories`), 200).memories).toHaveLength(1);
    // A member: no admin screens.
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).count()).toBe(0);
  });

  it('comes back to an app’s consent screen after the round trip to the provider', async () => {
    const app = await registerApp(server.url, 'Single sign-on app');
    try {
      const tab = await openPage(browser, server.url); // a tab signed in to nothing
      const request = authorizationRequest(server.url, app);
      await tab.page.goto(request.url);
      await tab.page.waitForURL(/\/console\/authorize\/[^/]+$/);
      const consentScreen = tab.page.url();
      await tab.page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
      await tab.page.getByRole('heading', { name: 'Allow Single sign-on app to use your Memory Bank?', level: 1 }).waitFor();
      expect(tab.page.url()).toBe(consentScreen);
      // Single sign-on enrolled the person, and the consent screen names them.
      expect(bodyOf(await tenant.owner.api.get('/v1/org/members'), 200).members.map((member) => member.email)).toContain(EMAIL);
      await tab.page.getByText(EMAIL).waitFor();
      await tab.page.getByRole('button', { name: 'Allow' }).click();
      await tab.page.waitForURL((url) => url.href.startsWith(app.redirectUri));
      const back = new URL(tab.page.url()).searchParams;
      expect(back.get('state')).toBe(request.state);
      expect((await redeemCode(server.url, app, request.verifier, back.get('code')!)).access_token).toBeTruthy();
      expect(tab.problems).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('had no script errors and no CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
