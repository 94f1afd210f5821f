import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, client } from '../../api/test/support/http';
import { startHttpsDocuments, type HttpsDocuments } from '../../api/test/support/https-documents';
import { McpOAuthApp, UnauthorizedError, type Client } from '../../api/test/support/mcp-oauth-app';
import { startCallbackServer, tokenRequest } from '../../api/test/support/oauth';
import { startOAuthService, type OAuthService } from '../../api/test/support/oauth-service';
import { launchBrowser, openPage } from './support/browser';

/**
 * An MCP app built on the official client SDK, end to end against the real service: it
 * identifies itself by a client metadata document served over https, discovers the
 * authorization server from /mcp/oauth's 401, and a person allows it on the console's
 * consent screen in Chromium. Then it uses tools, refreshes its tokens, and is cut off
 * when the person revokes it under Connected apps.
 */
let service: OAuthService;
let documents: HttpsDocuments;
let browser: Browser;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let ownerKey: string;
const problems: string[][] = [];

beforeAll(async () => {
  documents = await startHttpsDocuments();
  // The console is built (launchBrowser) before the service starts, which would build it too.
  browser = await launchBrowser();
  service = await startOAuthService('mcpoauth', { trust: documents.certificateFile });
  callback = await startCallbackServer();
  ({ ownerKey } = await service.provisionOrg('MCP app org'));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await callback?.close();
  await documents?.close();
});

const mcpUrl = () => new URL(`${service.url}/mcp/oauth`);

/** An app whose client id is the https URL of its metadata document, served by the test. */
function appWithDocument(name: string): { app: McpOAuthApp; clientId: string; documentPath: string } {
  const documentPath = `/apps/${name.toLowerCase().replaceAll(' ', '-')}.json`;
  const metadata = {
    client_name: name,
    redirect_uris: [callback.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  const clientId = documents.serve(documentPath, (url) => ({ client_id: url, ...metadata }));
  return { app: new McpOAuthApp(callback.redirectUri, metadata, clientId), clientId, documentPath };
}

/** A fresh tab, signed in to nothing. */
async function freshPage(): Promise<Page> {
  const opened = await openPage(browser, service.url);
  problems.push(opened.problems);
  return opened.page;
}

/**
 * What a person does when the app opens its latest authorization URL: the console's consent
 * screen (signing in with an API key first when `signIn`), Allow, and the way back to the
 * app's loopback redirect URI. Answers the callback's query.
 */
async function allowInConsole(page: Page, app: McpOAuthApp, signIn: boolean): Promise<URLSearchParams> {
  await page.goto(app.authorizationUrls.at(-1)!.href);
  await page.waitForURL(/\/console\/authorize\/[^/]+$/);
  if (signIn) {
    await page.getByLabel('API key').fill(ownerKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('heading', { name: `Allow ${app.clientMetadata.client_name} to use your Memory Bank?`, level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
  const query = new URL(page.url()).searchParams;
  expect(query.get('state')).toBe(app.lastState);
  expect(query.get('iss')).toBe(`${service.url}/oauth`);
  return query;
}

/** The SDK's whole first connection: refused, authorized in the browser, tokens exchanged, connected. */
async function connectThroughConsole(page: Page, app: McpOAuthApp, signIn: boolean): Promise<Client> {
  await expect(app.connect(mcpUrl())).rejects.toBeInstanceOf(UnauthorizedError);
  const transport = app.transport(mcpUrl());
  await transport.finishAuth(await allowInConsole(page, app, signIn));
  return app.connect(mcpUrl(), transport);
}

/** A tools/list on /mcp/oauth with `accessToken`, as any MCP client sends it: the HTTP status. */
async function mcpStatus(accessToken: string): Promise<number> {
  const response = await fetch(mcpUrl(), {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await response.body?.cancel();
  return response.status;
}

/** Polls (no sleep) until `accessToken` is refused; fails when it is still accepted a second after `since`. */
async function expectRefusedWithinASecond(accessToken: string, since: number): Promise<void> {
  for (;;) {
    const status = await mcpStatus(accessToken);
    const elapsed = Date.now() - since;
    if (status === 401) return;
    expect(status, 'a token is either accepted or refused').toBe(200);
    expect(elapsed, 'the token still works after its grant was revoked').toBeLessThan(1000);
  }
}

const grantsOfOwner = async () => bodyOf(await client(service.url, ownerKey).get('/v1/oauth/grants'), 200).grants;
const structured = <T>(result: Awaited<ReturnType<Client['callTool']>>) => result.structuredContent as T;

describe('an MCP app on the official SDK, with a client metadata document', () => {
  it('is allowed on the consent screen, saves and finds a memory, refreshes its tokens; a reused refresh token revokes it', async () => {
    const { app, clientId, documentPath } = appWithDocument('Okapi agent');
    const page = await freshPage();
    const mcp = await connectThroughConsole(page, app, true);

    // It found the authorization server from the 401 and asked with its document's URL as client id.
    expect(app.discoveryState()).toMatchObject({
      authorizationServerUrl: `${service.url}/oauth`,
      resourceMetadataUrl: `${service.url}/.well-known/oauth-protected-resource/mcp/oauth`,
    });
    const asked = app.authorizationUrls[0]!.searchParams;
    expect(Object.fromEntries(asked)).toMatchObject({ client_id: clientId, resource: `${service.url}/mcp/oauth`, code_challenge_method: 'S256' });
    expect(asked.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['memory:read', 'memory:write']));
    expect(documents.fetches(documentPath)).toBeGreaterThan(0);

    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['postMemory', 'getMemorySearch', 'getMemory']));
    const saved = structured<{ id: string; source: string }>(await mcp.callTool({ name: 'postMemory', arguments: { content: 'The okapi agent remembers where the okapi sleeps' } }));
    expect(saved).toMatchObject({ id: expect.stringMatching(/^mem_/), source: 'mcp' });
    const found = structured<{ results: { id: string }[] }>(await mcp.callTool({ name: 'getMemorySearch', arguments: { q: 'okapi sleeps' } }));
    expect(found.results.map((result) => result.id)).toEqual([saved.id]);
    // The person sees it as theirs over REST, and the app among their connected apps.
    expect(bodyOf(await client(service.url, ownerKey).get(`/v1/memory/${saved.id}`), 200)).toMatchObject({ id: saved.id });
    expect((await grantsOfOwner()).map((grant) => grant.client_id)).toContain(clientId);

    // The SDK's refresh path (auth() with a refresh token on hand): new tokens, and the app keeps working with them.
    const before = app.tokens()!;
    expect(before.refresh_token).toBeTruthy();
    expect(await app.refresh(mcpUrl())).toBe('AUTHORIZED');
    const after = app.tokens()!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBeTruthy();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    const listed = structured<{ memories: { id: string }[] }>(await mcp.callTool({ name: 'getMemory', arguments: { limit: 5 } }));
    expect(listed.memories.map((memory) => memory.id)).toContain(saved.id);

    // The rotated-out refresh token is refused, and its reuse (a stolen copy?) revokes the grant.
    const reused = await tokenRequest(service.url, { grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: clientId });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    const revokedAt = Date.now();
    await expectRefusedWithinASecond(after.access_token, revokedAt);
    const current = await tokenRequest(service.url, { grant_type: 'refresh_token', refresh_token: after.refresh_token!, client_id: clientId });
    expect(current.body.error).toBe('invalid_grant');
    expect((await grantsOfOwner()).map((grant) => grant.client_id)).not.toContain(clientId);

    // The SDK then asks the person again (its refresh fails), and the app is back once allowed.
    await expect(mcp.callTool({ name: 'getMemory', arguments: { limit: 5 } })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(app.authorizationUrls).toHaveLength(2);
    const transport = app.transport(mcpUrl());
    await transport.finishAuth(await allowInConsole(page, app, false));
    const again = await app.connect(mcpUrl(), transport);
    const relisted = structured<{ memories: { id: string }[] }>(await again.callTool({ name: 'getMemory', arguments: { limit: 5 } }));
    expect(relisted.memories.map((memory) => memory.id)).toContain(saved.id);
    await again.close();
    await mcp.close();
  }, 120_000);

  it('is refused within a second of the person revoking it under Connected apps', async () => {
    const { app, clientId } = appWithDocument('Notebook agent');
    const page = await freshPage();
    const mcp = await connectThroughConsole(page, app, true);
    expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
    const { access_token: accessToken } = app.tokens()!;
    expect(await mcpStatus(accessToken)).toBe(200);

    await page.goto(`${service.url}/console`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connected apps' }).click();
    const row = page.getByRole('table', { name: 'Your connected apps' }).getByRole('row', { name: /Notebook agent/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(clientId);
    await row.getByRole('button', { name: 'Revoke Notebook agent' }).click();
    const revoked = page.waitForResponse((response) => response.request().method() === 'DELETE' && new URL(response.url()).pathname.startsWith('/v1/oauth/grants/'));
    await page.getByRole('dialog', { name: 'Revoke Notebook agent?' }).getByRole('button', { name: 'Revoke access' }).click();
    expect((await revoked).status()).toBe(204);
    await expectRefusedWithinASecond(accessToken, Date.now());
    await expect.poll(() => row.count()).toBe(0);

    // The SDK sees the refusal too: its refresh token went with the grant, so it asks for a new authorization.
    await expect(mcp.callTool({ name: 'getMemory', arguments: { limit: 5 } })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(app.authorizationUrls).toHaveLength(2);
    expect((await grantsOfOwner()).map((grant) => grant.client_id)).not.toContain(clientId);
    await mcp.close();
  }, 120_000);

  it('had no script errors and no CSP violations', () => {
    expect(problems.flat()).toEqual([]);
  });
});
