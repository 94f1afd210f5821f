import { randomUUID } from 'node:crypto';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, client, expectStatus, type TestResponse } from './support/http';
import { startTestIssuer, type TestIssuer } from './support/oidc-issuer';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

let issuer: TestIssuer;
let server: TestServer;
let tenant: TestTenant;

const oidcEnv = (of: TestIssuer, extra: Record<string, string> = {}) => ({ OIDC_ISSUER: of.url, OIDC_AUDIENCE: of.audience, ...extra });

beforeAll(async () => {
  issuer = await startTestIssuer();
  server = await startTestServer({ env: oidcEnv(issuer) });
  tenant = await createTenant(server.services, server.url);
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

const as = (token: string, on: TestServer = server) => client(on.url, token);
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

interface UserRecord extends RowDataPacket {
  id: string;
  org_id: string;
  email: string;
  role: string;
  oidc_issuer: string | null;
  oidc_subject: string | null;
}

async function usersWithIdentity(subject: string, on: TestServer = server): Promise<UserRecord[]> {
  const [rows] = await on.database.pool.query<UserRecord[]>('SELECT * FROM users WHERE oidc_issuer = ? AND oidc_subject = ?', [issuer.url, subject]);
  return rows;
}

async function signedInUsers(orgId: string): Promise<number> {
  const [rows] = await server.database.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM users WHERE org_id = ? AND oidc_issuer IS NOT NULL', [orgId]);
  return Number(rows[0]!.n);
}

function expectInvalidToken(res: TestResponse) {
  expectStatus(res, 401);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="memory-bank", error="invalid_token"');
  expect(res.body).toMatchObject({ status: 401, type: 'urn:memory-bank:problem:unauthorized' });
}

describe('sign-in with an OIDC token', () => {
  it('creates a member on first sign-in, who can save and list memories; the next sign-in is the same user', async () => {
    const sub = unique('ada');
    const first = as(await issuer.sign({ sub, org_id: tenant.orgId, email: ` Ada.${sub}@Example.TEST `, email_verified: true }));

    expect((await first.get('/v1/memory')).body).toEqual({ memories: [], next_cursor: null });
    const saved = await first.post('/v1/memory', { body: { content: 'Ada signs in through the web app' } });
    expectStatus(saved, 201);

    const rows = await usersWithIdentity(sub);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ org_id: tenant.orgId, role: 'member', email: `ada.${sub}@example.test`, removed_at: null });

    const again = as(await issuer.sign({ sub, org_id: tenant.orgId }));
    const listed = await again.get('/v1/memory');
    expectStatus(listed, 200);
    expect(listed.body.memories.map((memory) => memory.id)).toEqual([saved.body.id]);
    expect(await usersWithIdentity(sub)).toHaveLength(1);

    // The user has no API key yet, but can make one: it sees the same memories.
    const issued = await again.post('/v1/api-keys', { body: { name: 'laptop' } });
    expectStatus(issued, 201);
    expect(bodyOf(await client(server.url, issued.body.key).get('/v1/memory'), 200).memories).toHaveLength(1);

    // A member: no admin scope, and other users' memories stay out of sight.
    expect((await again.post('/v1/org/members', { body: { email: `${unique('x')}@example.test`, role: 'member' } })).status).toBe(403);
    expect((await tenant.owner.api.get(`/v1/memory/${saved.body.id}`)).status).toBe(404);
  });

  it('gives a member without a (verified) email claim a placeholder address', async () => {
    for (const claims of [{}, { email: `${unique('unverified')}@example.test`, email_verified: false }, { email: `${unique('unvouched')}@example.test` }]) {
      const sub = unique('anon');
      expect((await as(await issuer.sign({ sub, org_id: tenant.orgId, ...claims })).get('/v1/memory')).status).toBe(200);
      const [row] = await usersWithIdentity(sub);
      expect(row?.email).toMatch(/^oidc-[0-9a-f]{32}@oidc\.invalid$/);
      expect(row?.role).toBe('member');
    }
  });

  it('links a member an admin pre-added by email, keeping their role', async () => {
    const email = `${unique('grace')}@example.test`;
    const added = await tenant.owner.api.post('/v1/org/members', { body: { email, role: 'admin' } });
    expectStatus(added, 201);

    // An email the provider does not vouch for links nobody: that caller is a new member.
    const impostor = unique('impostor');
    expect((await as(await issuer.sign({ sub: impostor, org_id: tenant.orgId, email })).post('/v1/org/members', { body: { email: `${unique('x')}@example.test`, role: 'member' } })).status).toBe(403);
    expect((await usersWithIdentity(impostor))[0]).toMatchObject({ role: 'member' });

    const sub = unique('grace');
    const grace = as(await issuer.sign({ sub, org_id: tenant.orgId, email: email.toUpperCase(), email_verified: true }));
    const invited = await grace.post('/v1/org/members', { body: { email: `${unique('invitee')}@example.test`, role: 'member' } });
    expectStatus(invited, 201);

    const rows = await usersWithIdentity(sub);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: added.body.user.id, role: 'admin', email });
  });

  it('enrols an identity once when its first sign-ins arrive together', async () => {
    const sub = unique('burst');
    const token = await issuer.sign({ sub, org_id: tenant.orgId, email: `${sub}@example.test` });
    const answers = await Promise.all(Array.from({ length: 8 }, () => as(token).get('/v1/memory')));
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(await usersWithIdentity(sub)).toHaveLength(1);
  });

  it('holds a linked identity to its org: another org claim is refused, no claim is fine', async () => {
    const other = await createTenant(server.services, server.url, 'Other org');
    const sub = unique('pinned');
    expect((await as(await issuer.sign({ sub, org_id: tenant.orgId })).get('/v1/memory')).status).toBe(200);
    expectInvalidToken(await as(await issuer.sign({ sub, org_id: other.orgId })).get('/v1/memory'));
    expect((await as(await issuer.sign({ sub })).get('/v1/memory')).status).toBe(200);
    expect(await usersWithIdentity(sub)).toHaveLength(1);
  });

  it('refuses removed users, whether linked already or pre-added by email', async () => {
    const sub = unique('gone');
    expect((await as(await issuer.sign({ sub, org_id: tenant.orgId })).get('/v1/memory')).status).toBe(200);
    await server.database.pool.query('UPDATE users SET removed_at = NOW(3) WHERE oidc_issuer = ? AND oidc_subject = ?', [issuer.url, sub]);
    expectInvalidToken(await as(await issuer.sign({ sub, org_id: tenant.orgId })).get('/v1/memory'));

    const email = `${unique('left')}@example.test`;
    const added = await tenant.owner.api.post('/v1/org/members', { body: { email, role: 'member' } });
    expectStatus(added, 201);
    await server.database.pool.query('UPDATE users SET removed_at = NOW(3) WHERE id = ?', [added.body.user.id]);
    const newcomer = unique('newcomer');
    expectInvalidToken(await as(await issuer.sign({ sub: newcomer, org_id: tenant.orgId, email, email_verified: true })).get('/v1/memory'));
    expect(await usersWithIdentity(newcomer)).toHaveLength(0);
  });

  it('refuses a second identity claiming the email of an already linked member', async () => {
    const email = `${unique('taken')}@example.test`;
    expect((await as(await issuer.sign({ sub: unique('first'), org_id: tenant.orgId, email, email_verified: true })).get('/v1/memory')).status).toBe(200);
    const second = unique('second');
    expectInvalidToken(await as(await issuer.sign({ sub: second, org_id: tenant.orgId, email, email_verified: true })).get('/v1/memory'));
    expect(await usersWithIdentity(second)).toHaveLength(0);
  });

  it('matches subjects exactly: another case is another person; trailing spaces are refused, never confused', async () => {
    const sub = unique('CaseSensitive');
    const original = await as(await issuer.sign({ sub, org_id: tenant.orgId })).post('/v1/memory', { body: { content: 'only the original subject sees this' } });
    expectStatus(original, 201);
    const other = await as(await issuer.sign({ sub: sub.toLowerCase(), org_id: tenant.orgId })).get('/v1/memory');
    expectStatus(other, 200);
    expect(other.body.memories.some((m) => m.id === original.body.id)).toBe(false);
    expect((await usersWithIdentity(sub.toLowerCase()))[0]!.id).not.toBe((await usersWithIdentity(sub))[0]!.id);
    // MySQL collations ignore trailing spaces, so the database cannot hold it apart: refused.
    expectInvalidToken(await as(await issuer.sign({ sub: `${sub} `, org_id: tenant.orgId })).get('/v1/memory'));
  });

  it('answers 401 with WWW-Authenticate for every kind of bad token, and enrols no one', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = () => ({ sub: unique('mallory'), org_id: tenant.orgId });
    const valid = await issuer.sign(claims());
    const [header, payload, signature] = valid.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'someone-else' })).toString('base64url');

    const cases: Record<string, string> = {
      expired: await issuer.sign({ ...claims(), iat: now - 3600, exp: now - 120 }),
      'not yet valid (nbf)': await issuer.sign({ ...claims(), nbf: now + 120 }),
      'without exp': await issuer.sign({ ...claims(), exp: undefined }),
      'without sub': await issuer.sign({ ...claims(), sub: undefined }),
      'wrong audience': await issuer.sign({ ...claims(), aud: 'another-app' }),
      'wrong issuer': await issuer.sign({ ...claims(), iss: 'https://evil.example.com' }),
      'an unknown key': await issuer.signWithUnpublishedKey(claims()),
      'an unpublished key under a published kid': await issuer.signWithUnpublishedKey(claims(), { kid: issuer.currentKid }),
      'a tampered payload': `${header}.${forged}.${signature}`,
      'a truncated signature': `${header}.${payload}.${signature.slice(0, -8)}`,
      'alg none': issuer.unsigned(claims()),
      'HS256 with a guessed secret': await issuer.signWithSecret(claims(), 'secret'),
      'no org claim': await issuer.sign({ sub: unique('orgless') }),
      'an unknown org': await issuer.sign({ ...claims(), org_id: 'org_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
      'a malformed org id': await issuer.sign({ ...claims(), org_id: "org_' OR 1=1" }),
      'a non-string org claim': await issuer.sign({ ...claims(), org_id: [tenant.orgId] }),
      'not a JWT': 'not-a-jwt',
    };
    const before = await signedInUsers(tenant.orgId);
    for (const [kind, token] of Object.entries(cases)) {
      const res = await as(token).get('/v1/memory');
      expect.soft(res.status, kind).toBe(401);
      expectInvalidToken(res);
    }
    expect(await signedInUsers(tenant.orgId)).toBe(before);
  });

  it('reads the org from the claim OIDC_ORG_CLAIM names', async () => {
    const custom = await startTestServer({ env: oidcEnv(issuer, { OIDC_ORG_CLAIM: 'https://memory.example.com/org' }) });
    try {
      const sub = unique('custom');
      expectInvalidToken(await as(await issuer.sign({ sub, org_id: tenant.orgId }), custom).get('/v1/memory'));
      expect((await as(await issuer.sign({ sub, 'https://memory.example.com/org': tenant.orgId }), custom).get('/v1/memory')).status).toBe(200);
      expect((await usersWithIdentity(sub, custom))[0]?.org_id).toBe(tenant.orgId);
    } finally {
      await custom.close();
    }
  });

  it('still accepts API keys', async () => {
    expect((await tenant.owner.api.get('/v1/memory')).status).toBe(200);
    expectInvalidToken(await client(server.url, `mbk_${'x'.repeat(40)}`).get('/v1/memory'));
  });

  it('signs MCP clients in with the token too', async () => {
    const token = await issuer.sign({ sub: unique('mcp'), org_id: tenant.orgId });
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });
});

describe("the issuer's keys", () => {
  it('discovers and fetches them once, however many requests', async () => {
    const own = await startTestIssuer();
    const api = await startTestServer({ env: oidcEnv(own) });
    try {
      const org = await createTenant(api.services, api.url);
      const sub = unique('cached');
      const tokens = await Promise.all(Array.from({ length: 10 }, () => own.sign({ sub, org_id: org.orgId })));
      expect((await Promise.all(tokens.map((token) => as(token, api).get('/v1/memory')))).map((res) => res.status)).toEqual(Array(10).fill(200));
      for (const token of tokens) expect((await as(token, api).get('/v1/memory')).status).toBe(200);
      expect(own.requests).toEqual({ discovery: 1, jwks: 1 });

      // An unknown kid within the cooldown is refused without refetching (no amplification).
      for (let i = 0; i < 5; i++) expectInvalidToken(await as(await own.signWithUnpublishedKey({ sub, org_id: org.orgId }), api).get('/v1/memory'));
      // Tokens of another issuer never make us fetch anything.
      expectInvalidToken(await as(await own.sign({ sub, org_id: org.orgId, iss: 'https://elsewhere.example.com' }), api).get('/v1/memory'));
      expect(own.requests).toEqual({ discovery: 1, jwks: 1 });
    } finally {
      await api.close();
      await own.close();
    }
  });

  it('follows a key rotation once the cooldown has passed', async () => {
    const own = await startTestIssuer();
    const api = await startTestServer({ env: oidcEnv(own, { OIDC_JWKS_COOLDOWN_MS: '300' }) });
    try {
      const org = await createTenant(api.services, api.url);
      const sub = unique('rotating');
      const oldToken = await own.sign({ sub, org_id: org.orgId });
      expect((await as(oldToken, api).get('/v1/memory')).status).toBe(200);

      const newKid = await own.rotate('ES256');
      await new Promise((resolve) => setTimeout(resolve, 400));
      const newToken = await own.sign({ sub, org_id: org.orgId });
      expect(newToken.split('.')[0]).toBe(Buffer.from(JSON.stringify({ alg: 'ES256', kid: newKid, typ: 'JWT' })).toString('base64url'));
      expect((await as(newToken, api).get('/v1/memory')).status).toBe(200);
      expect((await as(oldToken, api).get('/v1/memory')).status).toBe(200);
      expect(own.requests).toEqual({ discovery: 1, jwks: 2 });

      // Once the old key is retired and the set refetched, its tokens stop working.
      own.dropOldKeys();
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await as(await own.sign({ sub, org_id: org.orgId }, { kid: 'unknown-kid' }), api).get('/v1/memory')).status).toBe(401);
      expect(own.requests.jwks).toBe(3);
      expectInvalidToken(await as(oldToken, api).get('/v1/memory'));
    } finally {
      await api.close();
      await own.close();
    }
  });

  it('answers 503 with Retry-After while the issuer is unreachable, and recovers without a restart', async () => {
    const own = await startTestIssuer();
    const api = await startTestServer({ env: oidcEnv(own, { OIDC_JWKS_COOLDOWN_MS: '100' }) });
    try {
      const org = await createTenant(api.services, api.url);
      const token = await own.sign({ sub: unique('patient'), org_id: org.orgId });

      own.setOutage(true);
      for (let i = 0; i < 2; i++) {
        const res = await as(token, api).get('/v1/memory');
        expectStatus(res, 503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(res.body).toMatchObject({ status: 503, type: 'urn:memory-bank:problem:unavailable' });
      }
      // Invalid tokens are still 401, not 503: they never reach the issuer.
      expect((await as(issuer.unsigned({ iss: own.url }), api).get('/v1/memory')).status).toBe(401);

      own.setOutage(false);
      expect((await as(token, api).get('/v1/memory')).status).toBe(200);
      expect(own.requests.discovery).toBe(1);

      // Keys already fetched keep working while the issuer is down; a new kid cannot be fetched.
      own.setOutage(true);
      expect((await as(token, api).get('/v1/memory')).status).toBe(200);
      await own.rotate();
      await new Promise((resolve) => setTimeout(resolve, 150));
      const rotated = await as(await own.sign({ sub: unique('patient'), org_id: org.orgId }), api).get('/v1/memory');
      expectStatus(rotated, 503);

      await own.close();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect((await as(await own.sign({ sub: unique('patient'), org_id: org.orgId }), api).get('/v1/memory')).status).toBe(503);
    } finally {
      await api.close();
      await own.close().catch(() => {});
    }
  });

  it('answers 503 when the issuer was never reachable', async () => {
    const gone = await startTestIssuer();
    await gone.close();
    const api = await startTestServer({ env: oidcEnv(gone) });
    try {
      const org = await createTenant(api.services, api.url);
      const res = await as(await gone.sign({ sub: unique('early'), org_id: org.orgId }), api).get('/v1/memory');
      expectStatus(res, 503);
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await api.close();
    }
  });
});

describe('MCP sign-in discovery (RFC 9728)', () => {
  const mcpWithoutToken = (on: TestServer) =>
    fetch(`${on.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it('names the issuer at /.well-known/oauth-protected-resource (and its /mcp variant)', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await client(server.url).unchecked.get(path);
      expectStatus(res, 200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(res.body).toEqual({
        resource: `${server.url}/mcp`,
        authorization_servers: [issuer.url],
        bearer_methods_supported: ['header'],
        resource_name: 'Memory Bank',
        resource_documentation: `${server.url}/docs`,
      });
    }
  });

  it('uses PUBLIC_URL for the resource when set', async () => {
    const behindProxy = await startTestServer({ env: oidcEnv(issuer, { PUBLIC_URL: 'https://memory.example.com' }) });
    try {
      const res = await client(behindProxy.url).unchecked.get('/.well-known/oauth-protected-resource');
      expect(res.body).toMatchObject({ resource: 'https://memory.example.com/mcp', resource_documentation: 'https://memory.example.com/docs' });
      expect((await mcpWithoutToken(behindProxy)).headers.get('www-authenticate')).toContain(
        'resource_metadata="https://memory.example.com/.well-known/oauth-protected-resource"',
      );
    } finally {
      await behindProxy.close();
    }
  });

  it('points MCP clients at it from the 401 of /mcp', async () => {
    const res = await mcpWithoutToken(server);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="memory-bank", resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
    );
    // The rest of the API does not advertise it.
    expect((await client(server.url).get('/v1/memory')).headers.get('www-authenticate')).toBe('Bearer realm="memory-bank"');
  });

  it('does not exist when OIDC is not configured', async () => {
    const plain = await startTestServer();
    try {
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const res = await client(plain.url).unchecked.get(path);
        expectStatus(res, 404);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ status: 404, detail: 'No such route' });
      }
      const unauthorized = await mcpWithoutToken(plain);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="memory-bank"');
      // And a JWT is just an unknown credential.
      expectInvalidToken(await as(await issuer.sign({ org_id: tenant.orgId }), plain).get('/v1/memory'));
    } finally {
      await plain.close();
    }
  });
});
