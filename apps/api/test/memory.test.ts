import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_LIMITS } from '../src/limits';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';
import { bodyOf, expectStatus, type Answer } from './support/http';

let server: TestServer;
let tenant: TestTenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.services, server.url);
});
afterAll(() => server.close());

describe('POST /v1/memory', () => {
  it('saves a memory with tags and contexts and returns it (201)', async () => {
    const res = await tenant.owner.api.post('/v1/memory', {
      body: {
        content: '  Ada prefers tabs over spaces  ',
        tags: ['prefs', 'editor', 'prefs'],
        contexts: [
          {
            snippet: 'I always use tabs',
            citation: { url: 'https://chat.example/c/1', title: 'Editor chat' },
            conversation_id: 'conv-1',
            message_id: 'msg-9',
            origin: 'searched_conversation',
          },
          { snippet: 'tabs, please' },
        ],
      },
    });
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^mem_[0-9A-Z]{26}$/),
      scope: 'user',
      source: 'api',
      content: 'Ada prefers tabs over spaces',
      tags: ['prefs', 'editor'],
    });
    expect(res.body.contexts).toEqual([
      {
        id: expect.stringMatching(/^mctx_/),
        snippet: 'I always use tabs',
        citation: { url: 'https://chat.example/c/1', title: 'Editor chat' },
        conversation_id: 'conv-1',
        message_id: 'msg-9',
        origin: 'searched_conversation',
        created_at: res.body.created_at,
      },
      {
        id: expect.stringMatching(/^mctx_/),
        snippet: 'tabs, please',
        citation: null,
        conversation_id: null,
        message_id: null,
        origin: 'active_conversation',
        created_at: res.body.created_at,
      },
    ]);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(res.body.updated_at).toBe(res.body.created_at);

    const read = await tenant.owner.api.get(`/v1/memory/${res.body.id}`);
    expectStatus(read, 200);
    // A save answers the memory, plus what the save did (redacted, duplicate, similar).
    const { redacted: _redacted, duplicate, similar: _similar, ...memory } = res.body;
    expect(duplicate).toBe(false);
    expect(read.body).toEqual(memory);
    // Lists and searches answer the same fields, dates to the millisecond with Z included.
    const listed = await tenant.owner.api.get('/v1/memory?limit=50');
    expectStatus(listed, 200);
    expect(listed.body.memories.find((m) => m.id === memory.id)).toEqual(memory);
    const found = await tenant.owner.api.get('/v1/memory/search?q=tabs');
    expectStatus(found, 200);
    expect(found.body.results.find((m) => m.id === memory.id)).toMatchObject(memory);
    expect(memory.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('decides source itself and does not echo unknown fields', async () => {
    const res = await tenant.owner.api.unchecked.post('/v1/memory', {
      body: { content: 'server decides', source: 'mcp', user_id: 'usr_x', id: 'mem_fake', admin: true, org_id: 'org_x' },
    });
    expectStatus(res, 201);
    expect(res.body.scope).toBe('user');
    expect(res.body.source).toBe('api');
    expect(res.body.id).not.toBe('mem_fake');
    expect(res.body).not.toHaveProperty('admin');
    expect(res.body).not.toHaveProperty('user_id');
  });

  it('keeps every character: emoji, accents, CJK, quotes and SQL-looking text', async () => {
    const content = `Café 🎉 東京 "quoted" 'single' \\ back; DROP TABLE memory; -- %_`;
    const res = await tenant.owner.api.post('/v1/memory', { body: { content, tags: ['ünïcode 🏷️'] } });
    expectStatus(res, 201);
    const read = await tenant.owner.api.get(`/v1/memory/${res.body.id}`);
    expectStatus(read, 200);
    expect(read.body.content).toBe(content);
    expect(read.body.tags).toEqual(['ünïcode 🏷️']);
  });
});

describe('GET /v1/memory', () => {
  it('reads back the most contexts a memory may have, each of the longest snippet, as saved (get and list)', async () => {
    const solo = await createTenant(server.services, server.url);
    const contexts = Array.from({ length: MEMORY_LIMITS.contexts }, (_, i) => ({
      snippet: `${i} "é✓\\\n`.padEnd(MEMORY_LIMITS.snippetChars, 'x'),
      citation: { n: i + 0.5, nested: { list: [i, null, 'ü'] } },
      conversation_id: `conv-${i}`,
    }));
    const saved = await solo.owner.api.post('/v1/memory', { body: { content: 'many contexts', contexts } });
    expectStatus(saved, 201);
    expect(saved.body.contexts).toHaveLength(MEMORY_LIMITS.contexts);
    // Byte for byte as the save answered (but what the save did: redacted, duplicate, similar).
    const { redacted: _, duplicate: _duplicate, similar: _similar, ...asSaved } = saved.body;
    const got = await solo.owner.api.get(`/v1/memory/${saved.body.id}`);
    expect(JSON.stringify(got.body)).toBe(JSON.stringify(asSaved));
    const listed = await solo.owner.api.get('/v1/memory');
    expectStatus(listed, 200);
    expect(JSON.stringify(listed.body.memories[0])).toBe(JSON.stringify(asSaved));
  });

  it('lists newest first in pages with an opaque cursor until next_cursor is null', async () => {
    const solo = await createTenant(server.services, server.url);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await solo.owner.api.post('/v1/memory', {
        body: { content: `note number ${i}`, tags: i % 2 === 0 ? ['even'] : ['odd'], contexts: [{ snippet: `ctx ${i}` }] },
      });
      expectStatus(res, 201);
      ids.push(res.body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Answer<'get', '/v1/memory'> = await solo.owner.api.get(`/v1/memory?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expectStatus(res, 200);
      expect(res.body.memories.length).toBeLessThanOrEqual(3);
      for (const memory of res.body.memories) expect(memory.contexts).toHaveLength(1);
      seen.push(...res.body.memories.map((memory) => memory.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('defaults to 20 and filters by tag', async () => {
    const solo = await createTenant(server.services, server.url);
    for (let i = 0; i < 22; i++) {
      await solo.owner.api.post('/v1/memory', { body: { content: `item ${i}`, tags: i < 5 ? ['five'] : [] } });
    }
    const page = await solo.owner.api.get('/v1/memory');
    expectStatus(page, 200);
    expect(page.body.memories).toHaveLength(20);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    const tagged = await solo.owner.api.get('/v1/memory?tag=five&limit=100');
    expectStatus(tagged, 200);
    expect(tagged.body.memories).toHaveLength(5);
    expect(tagged.body.next_cursor).toBeNull();
    const none = await solo.owner.api.get('/v1/memory?tag=absent');
    expect(none.body).toEqual({ memories: [], next_cursor: null });
  });

  it('rejects a cursor it did not issue (400 naming cursor)', async () => {
    for (const cursor of ['garbage', Buffer.from('{"v":1,"before":"x"}').toString('base64url'), "' OR 1=1 --"]) {
      const res = await tenant.owner.api.get(`/v1/memory?cursor=${encodeURIComponent(cursor)}`);
      expectStatus(res, 400);
      expect(res.body.errors).toEqual([{ path: 'cursor', message: expect.any(String) }]);
    }
  });
});

describe('PATCH /v1/memory/{id}', () => {
  it('changes content and/or tags, bumps updated_at, and search sees the new content', async () => {
    const created = await tenant.owner.api.post('/v1/memory', {
      body: { content: 'the launch codename is walrus', tags: ['launch'], contexts: [{ snippet: 'keep me' }] },
    });
    expectStatus(created, 201);
    const id = created.body.id;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const patched = await tenant.owner.api.patch(`/v1/memory/${id}`, { body: { content: 'the launch codename is narwhal' } });
    expectStatus(patched, 200);
    expect(patched.body.content).toBe('the launch codename is narwhal');
    expect(patched.body.tags).toEqual(['launch']);
    expect(patched.body.contexts).toHaveLength(1);
    expect(patched.body.created_at).toBe(created.body.created_at);
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThan(Date.parse(created.body.updated_at));

    const oldWord = await tenant.owner.api.get('/v1/memory/search?q=walrus');
    expectStatus(oldWord, 200);
    expect(oldWord.body.results.map((r) => r.id)).not.toContain(id);
    const newWord = await tenant.owner.api.get('/v1/memory/search?q=narwhal');
    expectStatus(newWord, 200);
    expect(newWord.body.results.map((r) => r.id)).toContain(id);

    const retagged = await tenant.owner.api.patch(`/v1/memory/${id}`, { body: { tags: ['a', 'b'] } });
    expectStatus(retagged, 200);
    expect(retagged.body).toMatchObject({ content: 'the launch codename is narwhal', tags: ['a', 'b'] });
    const cleared = await tenant.owner.api.patch(`/v1/memory/${id}`, { body: { tags: [] } });
    expectStatus(cleared, 200);
    expect(cleared.body.tags).toEqual([]);
  });

  it('needs content or tags (400)', async () => {
    const created = await tenant.owner.api.post('/v1/memory', { body: { content: 'x' } });
    expectStatus(created, 201);
    const res = await tenant.owner.api.patch(`/v1/memory/${created.body.id}`, { body: {} });
    expectStatus(res, 400);
  });
});

describe('DELETE /v1/memory/{id}', () => {
  it('deletes the memory and its contexts: gone from read, list and search at once', async () => {
    const created = await tenant.owner.api.post('/v1/memory', {
      body: { content: 'ephemeral zebracorn fact', contexts: [{ snippet: 'zebracorn source' }, { snippet: 'second' }] },
    });
    expectStatus(created, 201);
    const id = created.body.id;
    expect(bodyOf(await tenant.owner.api.get('/v1/memory/search?q=zebracorn'), 200).results).toHaveLength(1);

    const res = await tenant.owner.api.delete(`/v1/memory/${id}`);
    expectStatus(res, 204);
    expect(res.text).toBe('');

    expect((await tenant.owner.api.get(`/v1/memory/${id}`)).status).toBe(404);
    expect(bodyOf(await tenant.owner.api.get('/v1/memory/search?q=zebracorn'), 200).results).toEqual([]);
    const list = await tenant.owner.api.get('/v1/memory?limit=100');
    expectStatus(list, 200);
    expect(list.body.memories.map((m) => m.id)).not.toContain(id);
    const [rows] = await server.database.pool.query('SELECT COUNT(*) AS n FROM memory_context WHERE memory_id = ?', [id]);
    expect((rows as { n: number }[])[0]!.n).toBe(0);
    expect((await tenant.owner.api.delete(`/v1/memory/${id}`)).status).toBe(404);
  });
});
