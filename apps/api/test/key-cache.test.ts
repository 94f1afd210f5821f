import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialCache, redisCredentialBroadcast } from '../src/auth/credential-cache';
import { bodyOf, client } from './support/http';
import { TEST_REDIS_URL } from './support/redis';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

/** The window the README documents (API_KEY_CACHE_MS's default). */
const WINDOW_MS = 1000;
const logger = pino({ level: 'silent' });

/**
 * Asks `ask` until it answers `refused`; every answer to a request sent once `windowEnd`
 * had passed (performance.now()) must be `refused` — the window is an upper bound.
 */
async function refusedWithin(ask: () => Promise<number>, refused: number, windowEnd: number): Promise<void> {
  const deadline = performance.now() + 20_000;
  for (;;) {
    const sentAt = performance.now();
    const status = await ask();
    if (sentAt >= windowEnd) expect(status).toBe(refused);
    if (status === refused) return;
    expect(performance.now()).toBeLessThan(deadline);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('the credential cache with Redis', () => {
  it('a change in one process drops the org’s entries in another at once, and only the org’s', async () => {
    const channel = { ttlMs: 60_000, orgOf: (value: { orgId: string }) => value.orgId, broadcast: redisCredentialBroadcast(TEST_REDIS_URL, logger), logger };
    const [a, b] = [createCredentialCache(channel), createCredentialCache(channel)];
    try {
      await Promise.all([a.ready(), b.ready()]);
      const org = `org_cache_${Date.now().toString(36)}`;
      for (const cache of [a, b]) {
        cache.set('k1', { orgId: org }, cache.generation);
        cache.set('k2', { orgId: `${org}_other` }, cache.generation);
      }
      await a.changed(org);
      expect(a.get('k1')).toBeUndefined();
      // The window is a minute here: only the message can empty it.
      await expect.poll(() => b.get('k1'), { timeout: 10_000, interval: 5 }).toBeUndefined();
      expect(b.get('k2')).toEqual({ orgId: `${org}_other` });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a lookup that raced a change is not remembered', () => {
    const cache = createCredentialCache({ ttlMs: 60_000, orgOf: (value: { orgId: string }) => value.orgId, logger });
    const startedAt = cache.generation;
    void cache.changed('org_x');
    cache.set('k', { orgId: 'org_x' }, startedAt);
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', { orgId: 'org_x' }, cache.generation);
    expect(cache.get('k')).toEqual({ orgId: 'org_x' });
  });
});

describe.each<{ name: string; env: Record<string, string> }>([
  { name: 'sharing Redis', env: { REDIS_URL: TEST_REDIS_URL } },
  { name: 'without Redis', env: {} },
])('API-key cache, two API processes $name', ({ env }) => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    a = await startTestServer({ env: { API_KEY_CACHE_MS: String(WINDOW_MS), ...env } });
    b = await startTestServer({ env: { API_KEY_CACHE_MS: String(WINDOW_MS), ...env } });
    await Promise.all([a.keyCache.ready(), b.keyCache.ready()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const onB = (user: TestUser) => client(b.url, user.key);
  /** Makes both processes remember the key; the end of B's window for it. */
  async function remembered(user: TestUser, path: '/v1/memory?limit=1' | '/v1/api-keys' | '/v1/org' = '/v1/memory?limit=1'): Promise<number> {
    expect((await user.api.get(path)).status).toBe(200);
    expect((await onB(user).get(path)).status).toBe(200);
    return performance.now() + WINDOW_MS;
  }

  it.each([
    { change: 'a revoked key', role: 'member' as const, revoke: (user: TestUser) => user.api.delete(`/v1/api-keys/${user.keyId}`) },
    { change: 'a removed admin', role: 'admin' as const, revoke: (user: TestUser, owner: TestUser) => owner.api.delete(`/v1/org/members/${user.userId}`) },
  ])('$change is refused at once in the process that made the change, and within the window in the other', async ({ role, revoke }) => {
    const tenant = await createTenant(a.services, a.url);
    const user = await tenant.addMember(role);
    const windowEnd = await remembered(user, '/v1/api-keys');
    expect((await revoke(user, tenant.owner)).status).toBeLessThan(300);
    expect((await user.api.get('/v1/api-keys')).status).toBe(401);
    await refusedWithin(async () => (await onB(user).get('/v1/api-keys')).status, 401, windowEnd);
  });

  it('a role taken away outside the API (no notice) ends admin powers within the window', async () => {
    const tenant = await createTenant(a.services, a.url);
    const admin = await tenant.addMember('admin');
    const windowEnd = await remembered(admin, '/v1/org');
    await a.database.pool.query("UPDATE users SET role = 'member' WHERE id = ?", [admin.userId]);
    await refusedWithin(async () => (await admin.api.get('/v1/org')).status, 403, windowEnd);
    await refusedWithin(async () => (await onB(admin).get('/v1/org')).status, 403, windowEnd);
  });

  it('an org setting changed applies at once in the process that changed it', async () => {
    const tenant = await createTenant(a.services, a.url);
    const secret = `sk-ant-api03-${'Qx7'.repeat(31)}0001AA`;
    expect(bodyOf(await tenant.owner.api.post('/v1/memory', { body: { content: `key ${secret}` } }), 201).redacted).toBe(1);
    expect((await tenant.owner.api.patch('/v1/org', { body: { redact_memory_secrets: false } })).status).toBe(200);
    const saved = await tenant.owner.api.post('/v1/memory', { body: { content: `key ${secret}` } });
    expect(saved.body).toMatchObject({ redacted: 0, content: `key ${secret}` });
  });
});
