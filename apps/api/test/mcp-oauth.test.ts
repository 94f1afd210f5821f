import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOAuthKeys } from '@memory-bank/db/system';
import { isFetchableAddress } from '../src/oauth/client-documents';
import { addOAuthKeys, retireOAuthKeys } from '../src/oauth/keys';
import { bodyOf, expectStatus } from './support/http';
import { authorize, CookieBrowser, pkce, registerClient, startCallbackServer, tokenRequest } from './support/oauth';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';

/**
 * Issue 41: the MCP authorization server (oauth/) and /mcp/oauth — discovery, the
 * authorization-code flow with PKCE and resource indicators, tokens bound to /mcp/oauth,
 * refresh rotation with reuse detection, revocation everywhere it can happen, step-up,
 * connected apps, the bad-input lines of the issue, and /mcp left exactly as it was.
 */
let server: TestServer;
let tenant: TestTenant;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let clientId: string;

beforeAll(async () => {
  server = await startTestServer({ ownPublicUrl: true });
  tenant = await createTenant(server.services, server.url, 'OAuth org');
  callback = await startCallbackServer();
  const registered = await registerClient(server.url, {
    redirect_uris: [callback.redirectUri],
    client_name: 'Test agent',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  expect(registered.status).toBe(201);
  clientId = String(registered.body.client_id);
});
afterAll(async () => {
  await callback?.close();
  await server?.close();
});

const resource = () => `${server.url}/mcp/oauth`;

interface Tokens {
  access: string;
  refresh: string;
}

/** The whole flow for `user`: authorization, consent, code → tokens. */
async function connect(user: TestUser, scope = 'memory:read memory:write', browser?: CookieBrowser): Promise<Tokens> {
  const flow = await authorize({ baseUrl: server.url, clientId, redirectUri: callback.redirectUri, key: user.key, scope, ...(browser && { browser }) });
  const code = flow.callback.searchParams.get('code');
  expect(code, flow.callback.href).toBeTruthy();
  const token = await redeem(flow);
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return { access: String(token.body.access_token), refresh: String(token.body.refresh_token) };
}

/** The token request for an authorization's code, as a public client sends it. */
const redeem = (flow: { callback: URL; verifier: string }, extra: Record<string, string> = {}, baseUrl = server.url, id = clientId) =>
  tokenRequest(baseUrl, {
    grant_type: 'authorization_code',
    code: flow.callback.searchParams.get('code')!,
    redirect_uri: callback.redirectUri,
    client_id: id,
    code_verifier: flow.verifier,
    ...extra,
  });

let rpcId = 1;
async function mcp(path: string, token: string | null, method: string, params: Record<string, unknown> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...(token && { authorization: `Bearer ${token}` }), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: rpcId++, method, params }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text.startsWith('{') ? (JSON.parse(text) as { result?: any; error?: any }) : text };
}
const callTool = (token: string, name: string, args: Record<string, unknown>) => mcp('/mcp/oauth', token, 'tools/call', { name, arguments: args });

/** Polls until `check` holds, for at most `ms` (a revocation must land within 1 s). */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}
const refused = (token: string) => async () => (await mcp('/mcp/oauth', token, 'tools/list')).status === 401;

describe('discovery', () => {
  it('/mcp/oauth without a token: 401 naming the resource metadata and the agent scopes', async () => {
    const res = await mcp('/mcp/oauth', null, 'tools/list');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="memory-bank", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp/oauth", scope="memory:read memory:write"`,
    );
  });

  it('the protected resource metadata names the resource and this authorization server', async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp/oauth`, { headers: { origin: 'https://inspector.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({
      resource: resource(),
      authorization_servers: [`${server.url}/oauth`],
      scopes_supported: ['memory:read', 'memory:write'],
      bearer_methods_supported: ['header'],
    });
  });

  it('the authorization server metadata, at the RFC 8414 and the OpenID locations', async () => {
    for (const url of [`${server.url}/.well-known/oauth-authorization-server/oauth`, `${server.url}/oauth/.well-known/openid-configuration`]) {
      const res = await fetch(url, { headers: { origin: 'https://inspector.example' } });
      expect(res.status, url).toBe(200);
      expect(['*', 'https://inspector.example'], url).toContain(res.headers.get('access-control-allow-origin'));
      const metadata = (await res.json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        issuer: `${server.url}/oauth`,
        authorization_endpoint: `${server.url}/oauth/auth`,
        token_endpoint: `${server.url}/oauth/token`,
        registration_endpoint: `${server.url}/oauth/reg`,
        code_challenge_methods_supported: ['S256'],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
      });
      expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
    }
  });

  it('/mcp never mentions OAuth: no resource_metadata, and its metadata paths stay 404', async () => {
    const res = await mcp('/mcp', null, 'tools/list');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).not.toMatch(/resource_metadata|scope=/);
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
  });

  it('without dynamic registration, the metadata has no registration endpoint and /oauth/reg is refused', async () => {
    const closed = await startTestServer({ ownPublicUrl: true, env: { OAUTH_DYNAMIC_REGISTRATION: 'false' } });
    try {
      const metadata = (await (await fetch(`${closed.url}/.well-known/oauth-authorization-server/oauth`)).json()) as Record<string, unknown>;
      expect(metadata.registration_endpoint).toBeUndefined();
      const registered = await fetch(`${closed.url}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'] }) });
      expect(registered.status).toBe(404);
    } finally {
      await closed.close();
    }
  });
});

describe('tokens', () => {
  it('an agent connects, lists the tools and saves and finds a memory as its person', async () => {
    const tokens = await connect(tenant.owner);
    const list = await mcp('/mcp/oauth', tokens.access, 'tools/list');
    expect(list.status).toBe(200);
    expect((list.body as any).result.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['postMemory', 'getMemorySearch']));
    const saved = await callTool(tokens.access, 'postMemory', { content: 'The okapi deploy runs on Fridays' });
    expect((saved.body as any).result.isError).toBeUndefined();
    const id = (saved.body as any).result.structuredContent.id as string;
    // The memory is the person's: their API key reads it.
    expect(bodyOf(await tenant.owner.api.get(`/v1/memory/${id}` as '/v1/memory/{id}'), 200).content).toBe('The okapi deploy runs on Fridays');
  });

  it('an access token works on /mcp/oauth only: not on /v1, not on /mcp; an API key is not a token for /mcp/oauth', async () => {
    const tokens = await connect(tenant.owner);
    const v1 = await fetch(`${server.url}/v1/memory`, { headers: { authorization: `Bearer ${tokens.access}` } });
    expect(v1.status).toBe(401);
    expect((await mcp('/mcp', tokens.access, 'tools/list')).status).toBe(401);
    const withKey = await mcp('/mcp/oauth', tenant.owner.key, 'tools/list');
    expect(withKey.status).toBe(401);
    expect(withKey.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('refresh tokens rotate; a used one is refused and revokes the whole grant', async () => {
    const first = await connect(tenant.owner);
    const refreshed = await tokenRequest(server.url, { grant_type: 'refresh_token', refresh_token: first.refresh, client_id: clientId });
    expect(refreshed.status).toBe(200);
    const second = { access: String(refreshed.body.access_token), refresh: String(refreshed.body.refresh_token) };
    expect(second.refresh).not.toBe(first.refresh);
    expect((await mcp('/mcp/oauth', second.access, 'tools/list')).status).toBe(200);

    const reused = await tokenRequest(server.url, { grant_type: 'refresh_token', refresh_token: first.refresh, client_id: clientId });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    await within(1000, refused(second.access));
    const after = await tokenRequest(server.url, { grant_type: 'refresh_token', refresh_token: second.refresh, client_id: clientId });
    expect(after.body.error).toBe('invalid_grant');
  });

  it('RFC 7009 revocation of an access token takes effect within 1 s', async () => {
    const tokens = await connect(tenant.owner);
    expect((await mcp('/mcp/oauth', tokens.access, 'tools/list')).status).toBe(200);
    const res = await fetch(`${server.url}/oauth/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.access, client_id: clientId }),
    });
    expect(res.status).toBe(200);
    await within(1000, refused(tokens.access));
  });

  it('a token never holds more than the role allows: a member asking for admin gets none', async () => {
    const member = await tenant.addMember('member');
    const tokens = await connect(member, 'memory:read admin');
    const list = await mcp('/mcp/oauth', tokens.access, 'tools/list');
    expect(list.status).toBe(200);
    const grants = bodyOf(await member.api.get('/v1/oauth/grants'), 200).grants;
    expect(grants.map((grant) => grant.scopes)).toEqual([['memory:read']]);
  });

  it('step-up: a read-only token calling a write tool gets 403 insufficient_scope naming every scope it needs, then connects again with them', async () => {
    const member = await tenant.addMember('member');
    const browser = new CookieBrowser();
    const readOnly = await connect(member, 'memory:read', browser);
    const denied = await callTool(readOnly.access, 'postMemory', { content: 'Needs write' });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toBe(
      `Bearer realm="memory-bank", error="insufficient_scope", scope="memory:write", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp/oauth"`,
    );
    // Reading still works with the same token.
    expect((await callTool(readOnly.access, 'getMemory', {})).status).toBe(200);
    const both = await connect(member, 'memory:read memory:write', browser);
    const saved = await callTool(both.access, 'postMemory', { content: 'Written after step-up' });
    expect((saved.body as any).result.isError).toBeUndefined();
    // One grant for the client, now with both scopes.
    expect(bodyOf(await member.api.get('/v1/oauth/grants'), 200).grants.map((grant) => grant.scopes)).toEqual([['memory:read', 'memory:write']]);
  });

  it("one person's token never reaches another's memories (same org or another org): the same answer as a missing id, and nothing changed", async () => {
    const victim = await tenant.addMember('member');
    const colleague = await tenant.addMember('member');
    const outsider = (await createTenant(server.services, server.url, 'Outsider org')).owner;
    const secret = bodyOf(await victim.api.post('/v1/memory', { body: { content: 'victim secret oauth note' } }), 201);
    const probes: [string, Record<string, unknown>][] = [
      ['getMemoryById', {}],
      ['patchMemoryById', { content: 'overwritten by an attacker' }],
      ['deleteMemoryById', {}],
    ];
    const shape = (res: Awaited<ReturnType<typeof callTool>>) => ({ ...(res.body as any).result.structuredContent, request_id: undefined });
    for (const attacker of [colleague, outsider]) {
      const { access } = await connect(attacker);
      for (const [tool, args] of probes) {
        const theirs = await callTool(access, tool, { id: secret.id, ...args });
        const missing = await callTool(access, tool, { id: 'mem_01ARZ3NDEKTSV4RRFFQ69G5FAV', ...args });
        expect((theirs.body as any).result.isError, tool).toBe(true);
        expect(shape(theirs), tool).toEqual(shape(missing));
        expect(shape(theirs).status, tool).toBe(404);
      }
      const search = await callTool(access, 'getMemorySearch', { q: 'victim secret oauth' });
      expect(JSON.stringify((search.body as any).result)).not.toContain('victim secret');
      const list = await callTool(access, 'getMemory', {});
      expect(JSON.stringify((list.body as any).result)).not.toContain('victim secret');
    }
    expect(bodyOf(await victim.api.get(`/v1/memory/${secret.id}` as '/v1/memory/{id}'), 200).content).toBe('victim secret oauth note');
  });
});

describe('consent', () => {
  it('is remembered per person, client and scope set; new scopes ask again', async () => {
    const member = await tenant.addMember('member');
    const browser = new CookieBrowser();
    await connect(member, 'memory:read', browser);
    // Same browser, same scopes: straight back to the client, no console.
    const { verifier, challenge } = pkce();
    const again = await browser.follow(
      `${server.url}/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callback.redirectUri, code_challenge: challenge, code_challenge_method: 'S256', scope: 'memory:read', state: 's' })}`,
      server.url,
    );
    expect(again.url.startsWith(callback.redirectUri), again.url).toBe(true);
    expect(verifier).toBeTruthy();
    // New scopes: the console asks.
    const more = await browser.follow(
      `${server.url}/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callback.redirectUri, code_challenge: challenge, code_challenge_method: 'S256', scope: 'memory:read memory:write', state: 's' })}`,
      server.url,
    );
    expect(new URL(more.url).pathname).toMatch(/^\/console\/authorize\//);
  });

  it('deny returns access_denied to the client', async () => {
    const flow = await authorize({ baseUrl: server.url, clientId, redirectUri: callback.redirectUri, key: tenant.owner.key, decision: 'deny' });
    expect(flow.callback.origin + flow.callback.pathname).toBe(callback.redirectUri);
    expect(flow.callback.searchParams.get('error')).toBe('access_denied');
    expect(flow.callback.searchParams.get('iss')).toBe(`${server.url}/oauth`);
  });

  it("the consent API answers only the browser that started the request (another browser's cookie: 404)", async () => {
    const starter = new CookieBrowser();
    const { challenge } = pkce();
    const started = await starter.follow(
      `${server.url}/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callback.redirectUri, code_challenge: challenge, code_challenge_method: 'S256', scope: 'memory:read', state: 's' })}`,
      server.url,
    );
    const uid = new URL(started.url).pathname.split('/').pop()!;
    const member = await tenant.addMember('member');
    const stranger = new CookieBrowser();
    const res = await stranger.fetch(`${server.url}/oauth/interaction/${uid}/consent`, { headers: { authorization: `Bearer ${member.key}` } });
    expect(res.status).toBe(404);
    const unauthenticated = await starter.fetch(`${server.url}/oauth/interaction/${uid}/consent`);
    expect(unauthenticated.status).toBe(401);
    const details = await starter.fetch(`${server.url}/oauth/interaction/${uid}/consent`, { headers: { authorization: `Bearer ${member.key}` } });
    expect(await details.json()).toMatchObject({
      client: { client_id: clientId, client_name: 'Test agent', redirect_host: new URL(callback.redirectUri).host },
      org: { id: tenant.orgId, name: 'OAuth org' },
      user: { id: member.userId, role: 'member' },
      scopes: [{ scope: 'memory:read', description: expect.any(String) }],
      remembered: false,
    });
  });
});

describe('revocation', () => {
  it('connected apps: a person lists and revokes their own; the token is refused within 1 s; audited', async () => {
    const member = await tenant.addMember('member');
    const tokens = await connect(member);
    const [grant] = bodyOf(await member.api.get('/v1/oauth/grants'), 200).grants;
    expect(grant).toMatchObject({ client_id: clientId, client_name: 'Test agent', scopes: ['memory:read', 'memory:write'], user_id: member.userId });
    // A use of the token is recorded on the grant (in the background).
    expect(grant!.last_used_at).toBeNull();
    expect((await mcp('/mcp/oauth', tokens.access, 'tools/list')).status).toBe(200);
    await within(2000, async () => bodyOf(await member.api.get('/v1/oauth/grants'), 200).grants[0]?.last_used_at !== null);
    // Another member cannot see or revoke it; the same 404 as a missing grant.
    const other = await tenant.addMember('member');
    expect(bodyOf(await other.api.get('/v1/oauth/grants'), 200).grants).toEqual([]);
    const foreign = await other.api.delete(`/v1/oauth/grants/${grant!.id}` as '/v1/oauth/grants/{id}');
    const missing = await other.api.delete('/v1/oauth/grants/nonexistent' as '/v1/oauth/grants/{id}');
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, request_id: undefined }).toEqual({ ...missing.body, request_id: undefined });
    expect((await mcp('/mcp/oauth', tokens.access, 'tools/list')).status).toBe(200);

    expect((await member.api.delete(`/v1/oauth/grants/${grant!.id}` as '/v1/oauth/grants/{id}')).status).toBe(204);
    await within(1000, refused(tokens.access));
    expect((await tokenRequest(server.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh, client_id: clientId })).body.error).toBe('invalid_grant');
    const audit = bodyOf(await tenant.owner.api.get('/v1/admin/audit?action=oauth.revoke'), 200);
    expect(audit.events.map((event) => event.target.id)).toContain(grant!.id);
    const granted = bodyOf(await tenant.owner.api.get('/v1/admin/audit?action=oauth.grant'), 200);
    expect(granted.events.length).toBeGreaterThan(0);
  });

  it("admins see and revoke a member's connected apps", async () => {
    const member = await tenant.addMember('member');
    const tokens = await connect(member);
    const all = bodyOf(await tenant.owner.api.get('/v1/oauth/grants?all=true'), 200).grants;
    const theirs = bodyOf(await tenant.owner.api.get(`/v1/oauth/grants?user_id=${member.userId}`), 200).grants;
    expect(theirs).toHaveLength(1);
    expect(all.map((grant) => grant.id)).toContain(theirs[0]!.id);
    expect((await member.api.get('/v1/oauth/grants?all=true')).status).toBe(403);
    expect((await tenant.owner.api.delete(`/v1/oauth/grants/${theirs[0]!.id}` as '/v1/oauth/grants/{id}')).status).toBe(204);
    await within(1000, refused(tokens.access));
  });

  it('member removal, a role change and org deletion revoke within 1 s', async () => {
    const removed = await tenant.addMember('member');
    const removedTokens = await connect(removed);
    expectStatus(await tenant.owner.api.delete(`/v1/org/members/${removed.userId}` as '/v1/org/members/{user_id}'), 200);
    await within(1000, refused(removedTokens.access));

    const promoted = await tenant.addMember('member');
    const promotedTokens = await connect(promoted);
    expect((await tenant.owner.api.patch(`/v1/org/members/${promoted.userId}` as '/v1/org/members/{user_id}', { body: { role: 'admin' } })).status).toBe(200);
    await within(1000, refused(promotedTokens.access));

    const doomed = await createTenant(server.services, server.url, 'Doomed org');
    const doomedTokens = await connect(doomed.owner);
    await server.services.operator.deleteOrg(doomed.orgId, 'test');
    await within(1000, refused(doomedTokens.access));
  });
});

describe('bad input: the OAuth error the RFCs name, never a 500, never a redirect to an unregistered URI', () => {
  const authUrl = (params: Record<string, string>) => {
    const { challenge } = pkce();
    return `${server.url}/oauth/auth?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback.redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'memory:read',
      state: 'st',
      ...params,
    })}`;
  };
  const firstHop = async (url: string) => {
    const res = await fetch(url, { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), type: res.headers.get('content-type'), text: await res.text() };
  };

  it('a mismatched or unregistered redirect_uri: 400 JSON, no redirect', async () => {
    for (const redirect of ['http://127.0.0.1:1/elsewhere', 'https://attacker.example/cb', `${callback.redirectUri}/extra`]) {
      const hop = await firstHop(authUrl({ redirect_uri: redirect }));
      expect(hop.status, redirect).toBe(400);
      expect(hop.location).toBeNull();
      expect(hop.type).toMatch(/application\/json/);
      expect(JSON.parse(hop.text).error).toBe('invalid_redirect_uri');
    }
  });

  it('an unknown client: 400 invalid_client as JSON', async () => {
    const hop = await firstHop(authUrl({ client_id: 'no-such-client' }));
    expect(hop).toMatchObject({ status: 400, location: null });
    expect(JSON.parse(hop.text).error).toBe('invalid_client');
  });

  it('PKCE missing or not S256, and a foreign resource: the error goes to the registered redirect URI', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge: '', code_challenge_method: '' }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ resource: 'https://other.example/mcp' }, 'invalid_target'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
    ];
    for (const [params, error] of cases) {
      const hop = await firstHop(authUrl(params));
      expect(hop.status, JSON.stringify(params) + hop.text).toBe(303);
      const location = new URL(hop.location!);
      expect(location.origin + location.pathname).toBe(callback.redirectUri);
      // A response type the client asked for decides the response mode: a token's is the fragment.
      const answer = new URLSearchParams(location.search || location.hash.slice(1));
      expect(answer.get('error'), JSON.stringify(params)).toBe(error);
      expect(answer.get('iss')).toBe(`${server.url}/oauth`);
    }
  });

  it('a request without scope gets the agent scopes', async () => {
    const member = await tenant.addMember('member');
    const flow = await authorize({ baseUrl: server.url, clientId, redirectUri: callback.redirectUri, key: member.key, scope: null });
    const token = await redeem(flow);
    expect(token.body.scope).toBe('memory:read memory:write');
  });

  it('a request without resource gets the MCP resource', async () => {
    const flow = await authorize({ baseUrl: server.url, clientId, redirectUri: callback.redirectUri, key: tenant.owner.key, resource: null });
    const token = await redeem(flow);
    expect(token.status).toBe(200);
    expect((await mcp('/mcp/oauth', String(token.body.access_token), 'tools/list')).status).toBe(200);
  });

  it('token endpoint: a wrong verifier, a reused code, a foreign resource, an unknown grant type', async () => {
    const flow = await authorize({ baseUrl: server.url, clientId, redirectUri: callback.redirectUri, key: tenant.owner.key });
    const code = flow.callback.searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', code, redirect_uri: callback.redirectUri, client_id: clientId };
    expect(await tokenRequest(server.url, { ...base, code_verifier: pkce().verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const foreign = await authorize({ baseUrl: server.url, clientId, redirectUri: callback.redirectUri, key: tenant.owner.key });
    const foreignCode = { ...base, code: foreign.callback.searchParams.get('code')!, code_verifier: foreign.verifier };
    expect(await tokenRequest(server.url, { ...foreignCode, resource: 'https://other.example/mcp' })).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    const second = await authorize({ baseUrl: server.url, clientId, redirectUri: callback.redirectUri, key: tenant.owner.key });
    const good = { ...base, code: second.callback.searchParams.get('code')!, code_verifier: second.verifier };
    const issued = await tokenRequest(server.url, good);
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(await tokenRequest(server.url, good)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A reused code revokes what it issued.
    await within(1000, refused(String(issued.body.access_token)));

    expect(await tokenRequest(server.url, { grant_type: 'password', username: 'a', password: 'b', client_id: clientId })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    expect((await tokenRequest(server.url, { grant_type: 'authorization_code', code: 'x', client_id: 'nobody' })).body.error).toBe('invalid_client');
  });

  it('registration requires redirect_uris and takes application_type; garbage never makes a 500', async () => {
    const missing = await registerClient(server.url, { client_name: 'No redirect', token_endpoint_auth_method: 'none' });
    expect(missing.status).toBe(400);
    expect(['invalid_redirect_uri', 'invalid_client_metadata']).toContain(missing.body.error);
    const native = await registerClient(server.url, { redirect_uris: ['http://localhost:33418/callback'], application_type: 'native', token_endpoint_auth_method: 'none' });
    expect(native.status, JSON.stringify(native.body)).toBe(201);
    const web = await registerClient(server.url, { redirect_uris: ['http://localhost:33418/callback'], token_endpoint_auth_method: 'none' });
    expect(web.status, JSON.stringify(web.body)).toBe(201);
    for (const body of ['not json', '[]', '{"redirect_uris":"x"}', '{"redirect_uris":[1]}', JSON.stringify({ redirect_uris: ['javascript:alert(1)'] })]) {
      const res = await fetch(`${server.url}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
    }
    for (const path of ['/oauth/token', '/oauth/token/revocation', '/oauth/auth', '/oauth/nothing', '/oauth/interaction/x']) {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '%%%=&&' });
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('registration is rate limited per client address', async () => {
    const limited = await startTestServer({ ownPublicUrl: true });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await registerClient(limited.url, { redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' })).status);
      expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('client metadata documents', () => {
  it('are fetched from public addresses only; loopback only when allowed', () => {
    for (const address of ['93.184.215.14', '2606:4700::1111', '8.8.8.8']) expect(isFetchableAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '224.0.0.1',
      '[::1]',
      'not-an-ip',
    ]) {
      expect(isFetchableAddress(address), address).toBe(false);
    }
    expect(isFetchableAddress('127.0.0.1', true)).toBe(true);
    expect(isFetchableAddress('::1', true)).toBe(true);
    expect(isFetchableAddress('10.0.0.1', true)).toBe(false);
    expect(isFetchableAddress('169.254.169.254', true)).toBe(false);
  });

  it('a client id that is not an https URL, or names a loopback host while that is not allowed, is refused', async () => {
    for (const id of ['http://127.0.0.1:9/client.json', 'https://127.0.0.1:9/client.json', 'https://localhost:9/client.json']) {
      const res = await fetch(
        `${server.url}/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: id, redirect_uri: 'http://127.0.0.1:9/cb', code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`,
        { redirect: 'manual' },
      );
      expect(res.status, id).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(((await res.json()) as { error: string }).error, id).toBe('invalid_client');
    }
  });
});

describe('expiry', () => {
  it('an expired code is refused; a registration never used expires, a used one stays', async () => {
    let ahead = 0;
    // A database of its own: a maintenance run a day ahead would expire what other suites saved.
    const timed = await startTestServer({ ownPublicUrl: true, ownDatabase: true, clock: { now: () => new Date(Date.now() + ahead) } });
    try {
      const owner = (await createTenant(timed.services, timed.url, 'Clock org')).owner;
      const register = async () =>
        String((await registerClient(timed.url, { redirect_uris: [callback.redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] })).body.client_id);
      const used = await register();
      const unused = await register();
      const flow = await authorize({ baseUrl: timed.url, clientId: used, redirectUri: callback.redirectUri, key: owner.key });
      ahead = 61_000;
      const late = await redeem(flow, {}, timed.url, used);
      expect(late).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

      ahead = 25 * 3600 * 1000;
      const start = (clientId: string) =>
        fetch(
          `${timed.url}/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callback.redirectUri, code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: 'memory:read' })}`,
          { redirect: 'manual' },
        );
      const gone = await start(unused);
      expect(gone.status).toBe(400);
      expect(((await gone.json()) as { error: string }).error).toBe('invalid_client');
      expect((await start(used)).status).toBe(303);
      // The maintenance loop deletes what expired.
      expect(await timed.maintenance.runOnce()).toBeGreaterThan(0);
    } finally {
      await timed.close();
    }
  });
});

describe('keys', () => {
  it('live in the database: every replica publishes the same keys; rotation adds one that signs, retiring keeps the newest', async () => {
    const first = await startTestServer({ ownPublicUrl: true, ownDatabase: true });
    try {
      const jwks = async (url: string) => ((await (await fetch(`${url}/oauth/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
      const before = await jwks(first.url);
      expect(before).toHaveLength(1);
      const replica = await startTestServer({ ownPublicUrl: true, databaseUrl: first.config.DATABASE_URL });
      try {
        expect(await jwks(replica.url)).toEqual(before);
      } finally {
        await replica.close();
      }
      await addOAuthKeys(first.database.db, { now: () => new Date(Date.now() + 1000) });
      const restarted = await startTestServer({ ownPublicUrl: true, databaseUrl: first.config.DATABASE_URL });
      try {
        const after = await jwks(restarted.url);
        expect(after).toHaveLength(2);
        expect(after[1]).toBe(before[0]);
        expect(await retireOAuthKeys(first.database.db)).toHaveLength(2);
        expect((await listOAuthKeys(first.database.db)).map((key) => key.kind).sort()).toEqual(['cookie', 'signing']);
      } finally {
        await restarted.close();
      }
    } finally {
      await first.close();
    }
  });
});
