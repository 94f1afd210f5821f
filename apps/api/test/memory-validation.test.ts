import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';
import { bodyOf, expectStatus } from './support/http';

let server: TestServer;
let tenant: TestTenant;
let existingId: string;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.services, server.url);
  existingId = bodyOf(await tenant.owner.api.post('/v1/memory', { body: { content: 'exists' } }), 201).id;
});
afterAll(() => server.close());

const repeat = (n: number, char = 'a') => char.repeat(n);

/** Each case: a body that breaks one limit, and the field the 400 must name. */
const invalidBodies: [string, unknown, string][] = [
  ['content missing', {}, 'content'],
  ['content empty', { content: '' }, 'content'],
  ['content only whitespace', { content: ' \n\t ' }, 'content'],
  ['content 8001 characters', { content: repeat(8001) }, 'content'],
  ['content 8001 emoji', { content: repeat(8001, '🎉') }, 'content'],
  ['content not a string', { content: 42 }, 'content'],
  ['tags not an array', { content: 'x', tags: 'a' }, 'tags'],
  ['33 tags', { content: 'x', tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }, 'tags'],
  ['empty tag', { content: 'x', tags: ['ok', ' '] }, 'tags.1'],
  ['65-character tag', { content: 'x', tags: [repeat(65)] }, 'tags.0'],
  ['17 contexts', { content: 'x', contexts: Array.from({ length: 17 }, () => ({ snippet: 's' })) }, 'contexts'],
  ['context without snippet', { content: 'x', contexts: [{}] }, 'contexts.0.snippet'],
  ['empty snippet', { content: 'x', contexts: [{ snippet: '  ' }] }, 'contexts.0.snippet'],
  ['4001-character snippet', { content: 'x', contexts: [{ snippet: repeat(4001) }] }, 'contexts.0.snippet'],
  ['129-character conversation_id', { content: 'x', contexts: [{ snippet: 's', conversation_id: repeat(129) }] }, 'contexts.0.conversation_id'],
  ['129-character message_id', { content: 'x', contexts: [{ snippet: 's', message_id: repeat(129) }] }, 'contexts.0.message_id'],
  ['unknown origin', { content: 'x', contexts: [{ snippet: 's', origin: 'elsewhere' }] }, 'contexts.0.origin'],
  ['citation not an object', { content: 'x', contexts: [{ snippet: 's', citation: 'url' }] }, 'contexts.0.citation'],
  ['citation over 16 KiB', { content: 'x', contexts: [{ snippet: 's', citation: { blob: repeat(17_000) } }] }, 'contexts.0.citation'],
];

describe('memory limits (400 problem naming the field)', () => {
  it.each(invalidBodies)('POST rejects %s', async (_label, body, field) => {
    const res = await tenant.owner.api.unchecked.post('/v1/memory', { body });
    expectStatus(res, 400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, type: expect.any(String), title: expect.any(String), request_id: expect.any(String) });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    expect(res.body.detail).toContain(field);
  });

  // PATCH takes content and tags with the same limits (contexts are set at creation).
  const patchCases = invalidBodies.filter(([, body]) => 'content' in (body as object) && !('contexts' in (body as object)));
  it.each(patchCases.filter(([label]) => label !== 'content missing'))('PATCH rejects %s', async (_label, body, field) => {
    const res = await tenant.owner.api.unchecked.patch(`/v1/memory/${existingId}`, { body });
    expectStatus(res, 400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  it('accepts every limit exactly', async () => {
    const res = await tenant.owner.api.post('/v1/memory', {
      body: {
        content: repeat(8000, '🎉'),
        tags: Array.from({ length: 32 }, (_, i) => `${i}`.padEnd(64, 'x')),
        contexts: Array.from({ length: 16 }, (_, i) => ({
          snippet: repeat(4000, 'é'),
          conversation_id: repeat(128, 'c'),
          message_id: `${i}`.padEnd(128, 'm'),
          citation: { note: repeat(16_000) },
        })),
      },
    });
    expectStatus(res, 201);
    expect(Array.from(res.body.content)).toHaveLength(8000);
    expect(res.body.tags).toHaveLength(32);
    expect(res.body.contexts).toHaveLength(16);
  });

  it('stores lone UTF-16 surrogates as U+FFFD wherever they come, and answers what it stored', async () => {
    // Valid JSON, but not text MySQL can keep (tags and citations are JSON columns).
    const rawBody = '{"content":"half \\ud83d a smile","tags":["\\udfff","ok"],"contexts":[{"snippet":"s \\ud800","citation":{"k\\udc00":"\\ud800"}}]}';
    const created = await tenant.owner.api.post('/v1/memory', { rawBody, headers: { 'content-type': 'application/json' } });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      content: 'half \ufffd a smile',
      tags: ['\ufffd', 'ok'],
      contexts: [{ snippet: 's \ufffd', citation: { 'k\ufffd': '\ufffd' } }],
    });
    const read = await tenant.owner.api.get(`/v1/memory/${created.body.id}`);
    const { duplicate: _duplicate, similar: _similar, ...saved } = created.body;
    expect({ ...read.body, redacted: 0 }).toEqual(saved);
    const patched = await tenant.owner.api.patch(`/v1/memory/${created.body.id}`, {
      rawBody: '{"tags":["\\ud800x"]}',
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(patched, 200);
    expect(patched.body.tags).toEqual(['\ufffdx']);
  });

  it('limits how deeply a citation nests (16 levels) and never fails on deeper JSON', async () => {
    const nested = (levels: number): Record<string, unknown> => (levels === 1 ? { a: 1 } : { a: nested(levels - 1) });
    const ok = await tenant.owner.api.post('/v1/memory', { body: { content: 'deep', contexts: [{ snippet: 's', citation: nested(16) }] } });
    expectStatus(ok, 201);
    for (const levels of [17, 32, 5000]) {
      const res = await tenant.owner.api.post('/v1/memory', {
        rawBody: `{"content":"deep","contexts":[{"snippet":"s","citation":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}]}`,
        headers: { 'content-type': 'application/json' },
      });
      expectStatus(res, 400);
      expect(res.body.errors?.[0]?.path, String(levels)).toBe('contexts.0.citation');
    }
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await tenant.owner.api.post('/v1/memory', { rawBody: JSON.stringify({ content: 'x', pad: repeat(1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expectStatus(res, 413);
    expect(res.body.status).toBe(413);
  });

  it('refuses a chunked body over 1 MiB with 413 (no Content-Length)', async () => {
    const chunk = new TextEncoder().encode(repeat(64 * 1024));
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await fetch(`${server.url}/v1/memory`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.owner.key}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('answers a non-JSON content type with 415 and malformed JSON with 400', async () => {
    const text = await tenant.owner.api.post('/v1/memory', { rawBody: 'content=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectStatus(text, 415);
    const plain = await tenant.owner.api.post('/v1/memory', { rawBody: '{"content":"x"}', headers: { 'content-type': 'text/plain' } });
    expectStatus(plain, 415);
    const malformed = await tenant.owner.api.post('/v1/memory', { rawBody: '{"content":', headers: { 'content-type': 'application/json' } });
    expectStatus(malformed, 400);
    expect(malformed.headers.get('content-type')).toMatch(/problem\+json/);
    const notObject = await tenant.owner.api.post('/v1/memory', { rawBody: '["content"]', headers: { 'content-type': 'application/json' } });
    expectStatus(notObject, 400);
    const nothing = await tenant.owner.api.unchecked.post('/v1/memory');
    expect([400, 415]).toContain(nothing.status);
  });
});

describe('query limits', () => {
  const badQueries = [
    ['/v1/memory?limit=0', 'limit'],
    ['/v1/memory?limit=101', 'limit'],
    ['/v1/memory?limit=abc', 'limit'],
    ['/v1/memory?limit=1.5', 'limit'],
    [`/v1/memory?tag=${repeat(65)}`, 'tag'],
    ['/v1/memory/search', 'q'],
    ['/v1/memory/search?q=', 'q'],
    ['/v1/memory/search?q=%20%20', 'q'],
    [`/v1/memory/search?q=${repeat(513)}`, 'q'],
    ['/v1/memory/search?q=x&limit=0', 'limit'],
    ['/v1/memory/search?q=x&limit=51', 'limit'],
  ] as const;
  it.each(badQueries)('%s → 400 naming %s', async (path, field) => {
    const res = await tenant.owner.api.get(path);
    expectStatus(res, 400);
    expect(res.body.errors?.map((e) => e.path)).toContain(field);
  });

  it('accepts the edges', async () => {
    expect((await tenant.owner.api.get('/v1/memory?limit=1')).status).toBe(200);
    expect((await tenant.owner.api.get('/v1/memory?limit=100')).status).toBe(200);
    expect((await tenant.owner.api.get('/v1/memory/search?q=x&limit=50')).status).toBe(200);
    expect((await tenant.owner.api.get(`/v1/memory/search?q=${repeat(512)}`)).status).toBe(200);
  });
});
