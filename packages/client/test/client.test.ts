import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../apps/api/test/support/server';
import { createTenant, type TestTenant } from '../../../apps/api/test/support/tenants';
import { createMemoryBankClient, MemoryBankError, ok, type RetryEvent } from '../src';
import { GENERATED_FILES, renderClientSources } from '../scripts/render';

const root = join(import.meta.dirname, '..');

let server: TestServer;
let limited: TestServer;
let tenant: TestTenant;
beforeAll(async () => {
  [server, limited] = await Promise.all([
    startTestServer(),
    // One request per second per key: the second of two quick requests is refused with a real 429.
    startTestServer({ env: { RATE_LIMIT_KEY_PER_SECOND: '1', RATE_LIMIT_KEY_BURST: '1' } }),
  ]);
  tenant = await createTenant(server.services, server.url);
});
afterAll(async () => {
  await Promise.all([server?.close(), limited?.close()]);
});

/** A local HTTP server for answers the service does not give on demand (it records what it got). */
interface LocalAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

async function localServer(answer: (n: number, headers: Record<string, string | string[] | undefined>, body: string) => Promise<LocalAnswer>) {
  const seen: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ headers: req.headers, body });
      answer(seen.length, req.headers, body).then(
        (out) => res.writeHead(out.status, out.headers ?? {}).end(out.body ?? ''),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

describe('the generated layer', () => {
  it('matches the service’s /openapi.json (else run `pnpm --filter @memory-bank/client generate`)', async () => {
    const rendered = await renderClientSources(await (await fetch(`${server.url}/openapi.json`)).text());
    for (const [name, file] of Object.entries(GENERATED_FILES)) {
      expect(readFileSync(join(root, file), 'utf8'), `${file} is stale: run pnpm --filter @memory-bank/client generate`).toBe(
        rendered[name as keyof typeof GENERATED_FILES],
      );
    }
  }, 60_000);

  it('imports nothing of Node at run time (it runs in browsers)', () => {
    const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(sources.length).toBeGreaterThan(3);
    for (const file of sources) expect(readFileSync(join(root, 'src', file), 'utf8'), file).not.toMatch(/from ['"](node:|fs|path|crypto|buffer)/);
  });
});

describe('the client against the service', () => {
  it('saves and reads with an API key, or with an async token provider', async () => {
    const mb = createMemoryBankClient({ baseUrl: server.url, token: tenant.owner.key });
    const saved = await ok(mb.POST('/v1/memory', { body: { content: 'The deploy window is Tuesday 10:00 UTC' } }));
    expect(saved.id).toMatch(/^mem_/);
    let asked = 0;
    const viaProvider = createMemoryBankClient({
      baseUrl: server.url,
      token: async () => {
        asked += 1;
        return tenant.owner.key;
      },
    });
    const read = await ok(viaProvider.GET('/v1/memory/{id}', { params: { path: { id: saved.id } } }));
    expect(read.content).toBe('The deploy window is Tuesday 10:00 UTC');
    expect(asked).toBe(1);
  });

  it('throws a typed MemoryBankError for problem+json answers', async () => {
    const mb = createMemoryBankClient({ baseUrl: server.url, token: tenant.owner.key });
    const missing = await mb.GET('/v1/memory/{id}', { params: { path: { id: 'mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V' } } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(MemoryBankError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', title: 'Not Found' });
    expect((missing as MemoryBankError).requestId).toBeTruthy();

    const invalid = await mb.POST('/v1/memory', { body: { content: '   ' } }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((invalid as MemoryBankError).errors.map((e) => e.path)).toContain('content');

    const stranger = createMemoryBankClient({ baseUrl: server.url, token: 'mbk_not_a_real_key' });
    await expect(stranger.GET('/v1/memory')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('iterates over every page of a cursor-paged list', async () => {
    const other = await createTenant(server.services, server.url, 'Paging org');
    const mb = createMemoryBankClient({ baseUrl: server.url, token: other.owner.key });
    const saved: string[] = [];
    for (let i = 0; i < 5; i++) saved.push((await ok(mb.POST('/v1/memory', { body: { content: `Paged memory number ${i}` } }))).id);
    const pages = [];
    for await (const page of mb.pages('/v1/memory', { query: { limit: 2 } })) pages.push(page);
    expect(pages.map((p) => p.memories.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.memories.map((m) => m.id)).sort()).toEqual(saved.sort());
    expect(pages.at(-1)!.next_cursor).toBeNull();
  });

  it('retries a real 429 after the Retry-After the rate limiter sends', async () => {
    const other = await createTenant(limited.services, limited.url, 'Limited org');
    const retries: RetryEvent[] = [];
    const mb = createMemoryBankClient({ baseUrl: limited.url, token: other.owner.key, onRetry: (event) => retries.push(event) });
    await ok(mb.GET('/v1/memory'));
    const second = await ok(mb.GET('/v1/memory'));
    expect(second.memories).toEqual([]);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries[0]).toMatchObject({ attempt: 1, status: 429, delayMs: 1000, method: 'GET' });

    // Without retries the same refusal is the typed error, with the server's Retry-After.
    const once = createMemoryBankClient({ baseUrl: limited.url, token: other.owner.key, retry: { attempts: 1 } });
    const refused = await Promise.all([once.GET('/v1/memory'), once.GET('/v1/memory')].map((p) => p.then(() => null, (e: unknown) => e)));
    expect(refused.find((e) => e !== null)).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 1 });
  });

  it('sends one Idempotency-Key per save and reuses it on the retry, so a lost answer saves once', async () => {
    const other = await createTenant(server.services, server.url, 'Idempotent org');
    // Forwards to the service, but loses the service's first answer and says 503 instead.
    const proxy = await localServer(async (n, headers, body): Promise<LocalAnswer> => {
      const forwarded = await fetch(`${server.url}/v1/memory`, {
        method: 'POST',
        headers: { authorization: String(headers.authorization), 'content-type': 'application/json', 'idempotency-key': String(headers['idempotency-key']) },
        body,
      });
      const text = await forwarded.text();
      if (n === 1) return { status: 503, headers: { 'retry-after': '0', 'content-type': 'application/problem+json' }, body: '{}' };
      return { status: forwarded.status, headers: { 'content-type': 'application/json', 'idempotent-replayed': forwarded.headers.get('idempotent-replayed') ?? '' }, body: text };
    });
    try {
      const mb = createMemoryBankClient({ baseUrl: proxy.url, token: other.owner.key });
      const { data, response } = await mb.POST('/v1/memory', { body: { content: 'Saved exactly once' } });
      expect(response.headers.get('idempotent-replayed')).toBe('true');
      const keys = proxy.seen.map((s) => s.headers['idempotency-key']);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(keys[1]).toBe(keys[0]);
      const direct = createMemoryBankClient({ baseUrl: server.url, token: other.owner.key });
      const listed = await ok(direct.GET('/v1/memory'));
      expect(listed.memories.map((m) => m.id)).toEqual([data!.id]);
      // A second logical save gets a key of its own.
      await direct.POST('/v1/memory', { body: { content: 'Another one' } });
      expect((await ok(direct.GET('/v1/memory'))).memories).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });
});

describe('retry bounds (a local server)', () => {
  it('does not wait longer than maxDelayMs, nor retry a POST that takes no Idempotency-Key on 503, nor beyond `attempts`', async () => {
    const local = await localServer(async (_n, headers) => ({
      status: headers['x-case'] === 'long' ? 429 : 503,
      headers: { 'retry-after': headers['x-case'] === 'long' ? '3600' : '0', 'content-type': 'application/problem+json' },
      body: JSON.stringify({ type: 'urn:memory-bank:problem:unavailable', title: 'Service Unavailable', status: 503, detail: 'busy' }),
    }));
    try {
      const mb = createMemoryBankClient({ baseUrl: local.url, token: 'k', retry: { attempts: 4, maxDelayMs: 5000 } });
      await expect(mb.GET('/v1/memory', { headers: { 'x-case': 'long' } })).rejects.toMatchObject({ status: 429, retryAfterSeconds: 3600 });
      expect(local.seen).toHaveLength(1);
      await expect(mb.GET('/v1/memory')).rejects.toMatchObject({ status: 503, code: 'unavailable', detail: 'busy' });
      expect(local.seen).toHaveLength(5);
      // Remembering an event takes no Idempotency-Key: a 503 after it may have written, so no retry.
      const remember = mb.POST('/v1/workstreams/{id}/events/{sequence}/remember', { params: { path: { id: 'ws_1', sequence: 1 } }, body: {} });
      await expect(remember).rejects.toMatchObject({ status: 503 });
      expect(local.seen).toHaveLength(6);
      expect(local.seen[5]!.headers['idempotency-key']).toBeUndefined();
    } finally {
      await local.close();
    }
  });
});
