import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownerScopeOf } from '@memory-bank/db/system';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Principal } from '../src/auth/principal';
import { loadConfig } from '../src/config';
import { unlimited } from '../src/http/limits';
import type { Bucket } from '../src/http/buckets';
import { createMemoryBucketStore, createRequestLimiter, rateLimitHeaders } from '../src/http/rate-limit';
import { createRedisBucketStore } from '../src/http/rate-limit-redis';
import { request, type TestResponse } from './support/http';
import { createMigratedDatabase } from './support/database';
import { startService, stopService } from './support/process';
import { startTestServer, type TestServer } from './support/server';
import { TEST_REDIS, TEST_REDIS_URL, testRedisUrlVia } from './support/redis';
import { startTcpProxy } from './support/tcp-proxy';
import { createTenant, type TestUser } from './support/tenants';

const REDIS_URL = TEST_REDIS_URL;
/**
 * Slow refill (a token every 5 s), so a handful of requests runs a bucket dry even when a
 * loaded machine takes a second or more to send them.
 */
const LIMITS = { RATE_LIMIT_KEY_PER_SECOND: '0.2', RATE_LIMIT_KEY_BURST: '5', RATE_LIMIT_ORG_PER_SECOND: '0.2', RATE_LIMIT_ORG_BURST: '8' };
const silent = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `"name";r=1;t=2` → { name, r, t }. */
function rateLimit(res: TestResponse): { name: string; r: number; t: number } | null {
  const header = res.headers.get('ratelimit');
  if (header === null) return null;
  const match = header.match(/^"(\w+)";r=(\d+);t=(\d+)$/);
  expect(match, header).not.toBeNull();
  return { name: match![1]!, r: Number(match![2]), t: Number(match![3]) };
}

const list = (user: TestUser) => user.api.get('/v1/memory');

function expectRefused(res: TestResponse, policy: 'key' | 'org') {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: 'urn:memory-bank:problem:rate_limited', status: 429, title: 'Too Many Requests' });
  expect(res.body.detail).toMatch(policy === 'key' ? /^Rate limit exceeded for this API key \(0\.2 per second, burst 5\); retry after \d+ s$/ : /for this organization \(0\.2 per second, burst 8\)/);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('ratelimit-policy')).toBe('"key";q=5;w=25, "org";q=8;w=40');
  expect(rateLimit(res)).toMatchObject({ name: policy, r: 0 });
}

describe('token buckets (in-process store, injected clock)', () => {
  const bucket = (name: string, perSecond: number, burst: number): Bucket => ({ name, limit: { perSecond, burst } });

  it('start full, spend one token per request, refill continuously and never beyond the burst', async () => {
    let now = 0;
    const store = createMemoryBucketStore({ now: () => now });
    const key = [bucket('key:a', 2, 5)];
    const levels: number[] = [];
    for (let i = 0; i < 5; i++) {
      const outcome = await store.take(key);
      expect(outcome?.admitted).toBe(true);
      levels.push(outcome!.tokens[0]!);
    }
    expect(levels).toEqual([4, 3, 2, 1, 0]);
    expect(await store.take(key)).toEqual({ admitted: false, tokens: [0] });
    now = 250; // half a token at 2/s: still refused, and the refusal costs nothing
    expect(await store.take(key)).toEqual({ admitted: false, tokens: [0.5] });
    now = 500;
    expect(await store.take(key)).toEqual({ admitted: true, tokens: [0] });
    now = 600_000; // ten minutes idle: capped at the burst
    expect(await store.take(key)).toEqual({ admitted: true, tokens: [4] });
  });

  it('supports fractional rates', async () => {
    let now = 0;
    const store = createMemoryBucketStore({ now: () => now });
    const slow = [bucket('key:slow', 0.5, 1)];
    expect((await store.take(slow))?.admitted).toBe(true);
    now = 1000;
    expect(await store.take(slow)).toEqual({ admitted: false, tokens: [0.5] });
    now = 2000;
    expect(await store.take(slow)).toEqual({ admitted: true, tokens: [0] });
  });

  it('charges every bucket of a request or none of them', async () => {
    let now = 0;
    const store = createMemoryBucketStore({ now: () => now });
    const org = bucket('org:o', 1, 2);
    expect((await store.take([bucket('key:a', 1, 5), org]))?.admitted).toBe(true);
    expect((await store.take([bucket('key:a', 1, 5), org]))?.admitted).toBe(true);
    // The org is empty: key b is refused and keeps its whole burst.
    expect(await store.take([bucket('key:b', 1, 5), org])).toEqual({ admitted: false, tokens: [5, 0] });
    now = 1000;
    expect(await store.take([bucket('key:b', 1, 5), org])).toEqual({ admitted: true, tokens: [4, 0] });
  });

  it('forgets buckets once they would be full again, so memory stays bounded', async () => {
    let now = 0;
    const store = createMemoryBucketStore({ now: () => now });
    for (let i = 0; i < 100; i++) await store.take([bucket(`key:${i}`, 10, 20), bucket('org:o', 1, 1000)]);
    expect(store.size).toBe(101);
    now = 10_000; // every key bucket is full after 0.1 s; the org needs 100 s
    await store.take([bucket('key:new', 10, 20)]);
    expect(store.size).toBe(2);
    now = 200_000;
    await store.take([bucket('key:new', 10, 20)]);
    expect(store.size).toBe(1);
  });
});

describe('RateLimit headers', () => {
  it('list every policy and report the bucket with the fewest whole tokens left', () => {
    const key = { policy: 'key', limit: { perSecond: 10, burst: 20 }, tokens: 7.6 } as const;
    const org = { policy: 'org', limit: { perSecond: 0.5, burst: 100 }, tokens: 99.2 } as const;
    expect(rateLimitHeaders([key, org])).toEqual({ 'RateLimit-Policy': '"key";q=20;w=2, "org";q=100;w=200', RateLimit: '"key";r=7;t=2' });
    expect(rateLimitHeaders([key, { ...org, tokens: 3.5 }]).RateLimit).toBe('"org";r=3;t=193');
  });
});

describe('createRequestLimiter', () => {
  const principal = (keyId: string | null): Principal => ({
    scope: ownerScopeOf({ orgId: 'org_1', id: 'usr_1', role: 'member' }),
    via: keyId ? 'api_key' : 'oidc',
    keyId,
    scopes: [],
    recallBudgetChars: null,
    redactsMemorySecrets: true,
    dedupesMemories: true,
    requestId: 'req',
  });
  const context = () => {
    const headers = new Map<string, string>();
    return { headers, setHeader: (name: string, value: string) => void headers.set(name, value) };
  };

  it('is unlimited when both rates are 0', () => {
    const config = loadConfig({ RATE_LIMIT_KEY_PER_SECOND: '0', RATE_LIMIT_ORG_PER_SECOND: '0' });
    expect(createRequestLimiter(config, silent)).toBe(unlimited);
  });

  it('limits OIDC sign-ins per user, and leaves out a limit whose rate is 0', async () => {
    const config = loadConfig({ RATE_LIMIT_KEY_PER_SECOND: '1', RATE_LIMIT_KEY_BURST: '2', RATE_LIMIT_ORG_PER_SECOND: '0' });
    const limiter = createRequestLimiter(config, silent);
    const { setHeader, headers } = context();
    await limiter.admit(principal(null), setHeader);
    expect(Object.fromEntries(headers)).toEqual({ 'RateLimit-Policy': '"user";q=2;w=2', RateLimit: '"user";r=1;t=1' });
    await limiter.admit(principal(null), setHeader);
    await expect(limiter.admit(principal(null), setHeader)).rejects.toMatchObject({ code: 'rate_limited', detail: expect.stringMatching(/^Rate limit exceeded for this user/) });
    // A key of the same user has its own bucket.
    await limiter.admit(principal('key_1'), setHeader);
    await limiter.close();
  });
});

describe('Redis bucket store', () => {
  const prefix = `memory-bank:rl:test-${ulid()}:`;
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    // Only this suite's keys: the Redis may be shared.
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('takes atomically from every bucket, refills on Redis time and expires idle buckets', async () => {
    // A generous deadline: this tests the buckets, not failing open (tested below), and a
    // loaded machine can take over 500 ms to answer.
    const store = createRedisBucketStore(REDIS_URL, silent, { prefix, timeoutMs: 10_000 });
    try {
      // Refills slow enough that a loaded machine's delays between calls cannot refill a token.
      const key: Bucket = { name: 'key:a', limit: { perSecond: 1, burst: 1 } };
      const org: Bucket = { name: 'org:o', limit: { perSecond: 0.1, burst: 100 } };
      const first = await store.take([key, org]);
      expect(first?.admitted).toBe(true);
      expect(first?.tokens[0]).toBe(0);
      expect(first?.tokens[1]).toBe(99);
      const refused = await store.take([key, org]);
      expect(refused?.admitted).toBe(false);
      expect(refused?.tokens[0]).toBeLessThan(1);
      expect(refused?.tokens[1]).toBeCloseTo(99, 0); // not charged
      // The refill is a rule of (Redis) time: 1/s, so a token is back once a second has passed.
      await sleep(1100);
      expect((await store.take([key, org]))?.admitted).toBe(true);
      // Each bucket expires about when it would be full again.
      const keyTtl = await redis.pttl(`${prefix}key:a`);
      const orgTtl = await redis.pttl(`${prefix}org:o`);
      expect(keyTtl).toBeGreaterThan(0);
      expect(keyTtl).toBeLessThanOrEqual(1000 + 1000);
      expect(orgTtl).toBeGreaterThan(1000);
      expect(orgTtl).toBeLessThanOrEqual(20_000 + 1000);
    } finally {
      await store.close();
    }
  });
});

describe.each([
  ['in-process', {}],
  ['Redis', { REDIS_URL }],
])('%s rate limits over HTTP', (_mode, env) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ...LIMITS, ...env } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses the sixth quick request of a key with a 429 problem, and admits again once a token is back', async () => {
    const { owner } = await createTenant(server.services, server.url);
    const admitted: TestResponse[] = [];
    for (let i = 0; i < 5; i++) admitted.push(await list(owner));
    for (const res of admitted) {
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"key";q=5;w=25, "org";q=8;w=40');
    }
    expect(admitted.map((res) => rateLimit(res)?.r)).toEqual([4, 3, 2, 1, 0]);
    expect(admitted.map((res) => rateLimit(res)?.name)).toEqual(['key', 'key', 'key', 'key', 'key']);
    // Seconds until the key's bucket is full again: 25, less what refilled while a loaded machine sent them.
    expect(rateLimit(admitted[4]!)?.t).toBeGreaterThanOrEqual(20);
    expect(rateLimit(admitted[4]!)?.t).toBeLessThanOrEqual(25);

    const refused = await list(owner);
    expectRefused(refused, 'key');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBe(5);
    expect(refused.body).toMatchObject({ request_id: refused.headers.get('x-request-id') });

    // The refill is a rule of time: waiting Retry-After is the condition itself.
    await sleep(retryAfter * 1000);
    const again = await list(owner);
    expect(again.status).toBe(200);
    expect(rateLimit(again)).toMatchObject({ name: 'key', r: 0 });
  });

  it('gives two keys of one org their own key buckets but one shared org bucket; other orgs are unaffected', async () => {
    const tenant = await createTenant(server.services, server.url);
    const second = await tenant.keyWithScopes(tenant.owner, ['memory:read']);
    for (let i = 0; i < 5; i++) expect((await list(tenant.owner)).status).toBe(200);
    expect((await list(second)).status).toBe(200);
    expect((await list(second)).status).toBe(200);
    const last = await list(second);
    expect(last.status).toBe(200);
    // The second key has 2 of its 5 tokens left, but the org only 0 of 8.
    expect(rateLimit(last)).toMatchObject({ name: 'org', r: 0 });
    expectRefused(await list(second), 'org');
    // Both buckets of the first key are dry now (which one is reported is a tie: both
    // started full at the first request and have given out exactly their burst since).
    const both = await list(tenant.owner);
    expect(both.status).toBe(429);
    expect(rateLimit(both)?.r).toBe(0);

    const other = await createTenant(server.services, server.url);
    const res = await list(other.owner);
    expect(res.status).toBe(200);
    expect(rateLimit(res)).toMatchObject({ name: 'key', r: 4 });
  });

  it('keeps the headers on errors raised after admission', async () => {
    const tenant = await createTenant(server.services, server.url);
    const missing = await tenant.owner.api.get('/v1/memory/mem_01J00000000000000000000000');
    expect(missing.status).toBe(404);
    expect(rateLimit(missing)).toMatchObject({ name: 'key', r: 4 });
    const writeOnly = await tenant.keyWithScopes(tenant.owner, ['memory:write']);
    const forbidden = await list(writeOnly);
    expect(forbidden.status).toBe(403);
    expect(rateLimit(forbidden)).toMatchObject({ name: 'key', r: 4 });
    // Unauthenticated requests are not limited (there is no one to charge).
    const anonymous = await request(server.url, 'GET', '/v1/memory');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ratelimit')).toBeNull();
  });
});

describe('shared through Redis', () => {
  const shared = { REDIS_URL, RATE_LIMIT_KEY_PER_SECOND: '0.1', RATE_LIMIT_KEY_BURST: '10', RATE_LIMIT_ORG_PER_SECOND: '0' };

  it('two app instances draw on the same buckets', async () => {
    const [a, b] = await Promise.all([startTestServer({ env: shared }), startTestServer({ env: shared })]);
    try {
      const { owner } = await createTenant(a.services, a.url);
      const results: TestResponse[] = [];
      for (let i = 0; i < 11; i++) results.push(await request([a, b][i % 2]!.url, 'GET', '/v1/memory', { key: owner.key }));
      expect(results.map((res) => res.status)).toEqual([...Array<number>(10).fill(200), 429]);
      expect(results.slice(0, 10).map((res) => rateLimit(res)?.r)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      expect(results[0]!.headers.get('ratelimit-policy')).toBe('"key";q=10;w=100');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('two API processes draw on the same buckets', async () => {
    const operator = `operator-token-rate-limit-${ulid()}`;
    const archive = await mkdtemp(join(tmpdir(), 'mb-rate-limit-'));
    // Real processes run the archiver, which seals every pending workstream of its database.
    const database = await createMigratedDatabase(inject('databaseServerUrl'), 'ratelimit');
    const env = { ...shared, DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'warn', ARCHIVE_URL: `file://${archive}`, MEMORY_BANK_OPERATOR_TOKEN: operator };
    const [a, b] = await Promise.all([startService(env), startService(env)]);
    try {
      const provisioned = await request(a.url, 'POST', '/v1/admin/orgs', { key: operator, body: { name: 'rate limited', owner: { email: `rl-${ulid()}@example.test` } } });
      expect(provisioned.status).toBe(201);
      const key = provisioned.body.api_key.key as string;
      const results: TestResponse[] = [];
      for (let i = 0; i < 11; i++) results.push(await request([a, b][i % 2]!.url, 'GET', '/v1/memory', { key }));
      expect(results.map((res) => res.status)).toEqual([...Array<number>(10).fill(200), 429]);
      expect(results.slice(0, 10).map((res) => rateLimit(res)?.r)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      expect(Number(results[10]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all([stopService(a.child), stopService(b.child)]);
      await database.drop();
      await rm(archive, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('when Redis is unavailable', () => {
  const capture = () => {
    const lines: string[] = [];
    return { lines, logger: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }) };
  };
  const closedPort = async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  };
  // Redis gets 500 ms before a request skips it; the rest is slack for a loaded machine.
  // A request that waited on a stalled Redis without a deadline would never answer.
  const QUICK_MS = 2500;
  const timed = async (user: TestUser) => {
    const started = performance.now();
    const res = await list(user);
    return { res, ms: performance.now() - started };
  };

  it('admits every request, quickly and without headers, and warns once without credentials', async () => {
    const { lines, logger } = capture();
    const server = await startTestServer({ env: { ...LIMITS, REDIS_URL: `redis://:secret-password@127.0.0.1:${await closedPort()}` }, logger });
    try {
      const { owner } = await createTenant(server.services, server.url);
      for (let i = 0; i < 12; i++) {
        const { res, ms } = await timed(owner);
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit')).toBeNull();
        expect(ms).toBeLessThan(QUICK_MS);
      }
      const warnings = lines.filter((line) => line.includes('rate limits are not enforced'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/ECONNREFUSED/);
      expect(lines.join('\n')).not.toContain('secret-password');
      expect(lines.join('\n')).not.toContain(owner.key);
    } finally {
      await server.close();
    }
  });

  it('fails open while Redis stalls or refuses, and enforces limits again once it is back', async () => {
    const proxy = await startTcpProxy(TEST_REDIS);
    const server = await startTestServer({ env: { ...LIMITS, RATE_LIMIT_KEY_BURST: '50', REDIS_URL: testRedisUrlVia(proxy.port) } });
    try {
      const { owner } = await createTenant(server.services, server.url);
      expect(rateLimit(await list(owner))).toMatchObject({ name: 'org', r: 7 });

      for (const mode of ['blackhole', 'refuse'] as const) {
        proxy.setMode(mode);
        for (let i = 0; i < 10; i++) {
          const { res, ms } = await timed(owner);
          expect(res.status).toBe(200);
          expect(ms).toBeLessThan(QUICK_MS);
        }
        proxy.setMode('forward');
        // The client reconnects by itself; limits (org burst 8) apply again.
        await expect.poll(async () => (await list(owner)).headers.get('ratelimit'), { timeout: 15_000, interval: 200 }).not.toBeNull();
      }
    } finally {
      await server.close();
      await proxy.close();
    }
  });
});

describe('with both rates 0', () => {
  it('neither limits nor sends headers', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_KEY_PER_SECOND: '0', RATE_LIMIT_KEY_BURST: '1', RATE_LIMIT_ORG_PER_SECOND: '0', RATE_LIMIT_ORG_BURST: '1' } });
    try {
      const { owner } = await createTenant(server.services, server.url);
      for (let i = 0; i < 20; i++) {
        const res = await list(owner);
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit')).toBeNull();
        expect(res.headers.get('ratelimit-policy')).toBeNull();
      }
    } finally {
      await server.close();
    }
  });
});
