import { ownerScopeOf } from '@memory-bank/db/system';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingsEndpoint } from '../src/embeddings';
import { startEmbeddingsServer, openAiEnv, EMBEDDINGS_TEST_KEY, type EmbeddingsTestServer } from './support/embeddings-server';
import { bodyOf, expectStatus } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

/*
 * Issue 44, the embeddings: the `openai` provider against a real HTTP server speaking the
 * OpenAI embeddings API (deterministic bag-of-words vectors, support/embeddings-server.ts).
 * A save is embedded after it commits; a change of text replaces its vector; the semantic
 * candidates are scoped to their owners exactly as search is.
 */
let embeddingsServer: EmbeddingsTestServer;
let server: TestServer;

beforeAll(async () => {
  embeddingsServer = await startEmbeddingsServer();
  server = await startTestServer({ env: openAiEnv(embeddingsServer, { EMBEDDINGS_DIMENSIONS: '48' }) });
});
afterAll(async () => {
  await server.close();
  await embeddingsServer.close();
});

interface VectorRow {
  owner_id: string;
  model: string;
  content_key: string;
  bytes: number | null;
  memory_key: string;
}

async function vectorsOf(memoryId: string): Promise<VectorRow[]> {
  const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>(
    'SELECT v.owner_id, v.model, v.content_key, LENGTH(v.vector) AS bytes, m.content_key AS memory_key FROM memory_vectors v JOIN memory m ON m.id = v.memory_id WHERE v.memory_id = ?',
    [memoryId],
  );
  return rows as VectorRow[];
}

async function save(who: TestUser, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  return bodyOf(await who.api.post('/v1/memory', { body: { content, ...extra } }), 201).id;
}

const scopeOf = (who: TestUser) => ownerScopeOf({ orgId: who.orgId, id: who.userId, role: who.role });

describe('the openai provider', () => {
  it('posts to <url>/embeddings, forgiving a trailing slash or a URL that names the endpoint', () => {
    expect(embeddingsEndpoint('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/embeddings');
    expect(embeddingsEndpoint('https://api.openai.com/v1/')).toBe('https://api.openai.com/v1/embeddings');
    expect(embeddingsEndpoint('http://127.0.0.1:11434/v1/embeddings')).toBe('http://127.0.0.1:11434/v1/embeddings');
  });

  it('embeds a memory after its save commits: one row, its owner, the model, the content key, int8 of the asked dimensions', async () => {
    const org = await createTenant(server.services, server.url, 'Embedded');
    const before = embeddingsServer.requests.length;
    const id = await save(org.owner, 'The quokka cluster rotates its database credentials every Friday');
    const shared = await save(org.owner, 'Quokka deploys are frozen during the holidays', { scope: 'org' });
    await server.embeddings.idle();
    expect(await vectorsOf(id)).toEqual([expect.objectContaining({ owner_id: org.owner.userId, model: 'openai:bag-of-words:48', bytes: 48 })]);
    expect(await vectorsOf(shared)).toEqual([expect.objectContaining({ owner_id: org.orgId, bytes: 48 })]);
    for (const row of [...(await vectorsOf(id)), ...(await vectorsOf(shared))]) expect(row.content_key).toBe(row.memory_key);
    const asked = embeddingsServer.requests.slice(before);
    expect(asked.length).toBeGreaterThan(0);
    for (const request of asked) expect(request).toMatchObject({ model: 'bag-of-words', dimensions: 48, authorization: `Bearer ${EMBEDDINGS_TEST_KEY}` });
  });

  it('replaces the vector when the text changes: the old one goes in the PATCH, the new one comes after', async () => {
    const org = await createTenant(server.services, server.url, 'Changed');
    const id = await save(org.owner, 'The wombat service listens on port 8443');
    await server.embeddings.idle();
    const [first] = await vectorsOf(id);
    expectStatus(await org.owner.api.patch(`/v1/memory/${id}`, { body: { content: 'The wombat service moved to port 9443' } }), 200);
    // The old vector is gone when the PATCH answers; the new one may already be there (the queue runs after the commit).
    for (const row of await vectorsOf(id)) expect(row.content_key).toBe(row.memory_key);
    await server.embeddings.idle();
    const [second] = await vectorsOf(id);
    expect(second!.content_key).toBe(second!.memory_key);
    expect(second!.content_key).not.toBe(first!.content_key);
    // A change of tags only keeps the vector.
    expectStatus(await org.owner.api.patch(`/v1/memory/${id}`, { body: { tags: ['ops'] } }), 200);
    expect(await vectorsOf(id)).toEqual([second]);
  });

  it("finds by meaning only the owners' memories: the user's own, the org's shared, never another member's or org's", async () => {
    const org = await createTenant(server.services, server.url, 'Scoped A');
    const member = await org.addMember('member');
    const other = await createTenant(server.services, server.url, 'Scoped B');
    const text = 'Pangolin backups are encrypted with the pangolin vault key';
    const own = await save(org.owner, text);
    const ofMember = await save(member, text);
    const shared = await save(org.owner, text, { scope: 'org' });
    const elsewhere = await save(other.owner, text);
    const elsewhereShared = await save(other.owner, text, { scope: 'org' });
    await server.embeddings.idle();
    const index = server.embeddings.index;
    const query = 'pangolin vault key backups';
    const ids = async (who: TestUser, filter: 'user' | 'org' | 'all') => ((await index.nearest(scopeOf(who), filter, query, 10)) ?? []).map((hit) => hit.memoryId).sort();
    expect(await ids(org.owner, 'user')).toEqual([own]);
    expect(await ids(org.owner, 'org')).toEqual([shared]);
    expect(await ids(org.owner, 'all')).toEqual([own, shared].sort());
    expect(await ids(member, 'all')).toEqual([ofMember, shared].sort());
    expect(await ids(other.owner, 'all')).toEqual([elsewhere, elsewhereShared].sort());
    const [best] = (await index.nearest(scopeOf(org.owner), 'user', query, 1))!;
    expect(best!.similarity).toBeGreaterThan(0.5);
    // A memory whose text changed leaves the index at once, and comes back with its new vector.
    expectStatus(await org.owner.api.patch(`/v1/memory/${own}`, { body: { content: 'Armadillo logs rotate weekly' } }), 200);
    // The new text's vector may already be in (it shares no word with the query); the old one is not.
    const afterChange = (await index.nearest(scopeOf(org.owner), 'user', query, 10)) ?? [];
    expect(afterChange.filter((hit) => hit.similarity > 0.5)).toEqual([]);
    await server.embeddings.idle();
    expect((await index.nearest(scopeOf(org.owner), 'user', 'armadillo logs', 5))!.map((hit) => hit.memoryId)).toEqual([own]);
    // A memory deleted here leaves at once too.
    expect((await org.owner.api.delete(`/v1/memory/${shared}`)).status).toBe(204);
    expect(await ids(member, 'all')).toEqual([ofMember]);
  });

  it('search answers 200 with the semantic leg on', async () => {
    const org = await createTenant(server.services, server.url, 'Searching');
    await save(org.owner, 'The okapi pipeline publishes nightly builds');
    await server.embeddings.idle();
    const found = bodyOf(await org.owner.api.get('/v1/memory/search?q=okapi%20nightly%20builds'), 200).results;
    expect(found.map((result) => result.content)).toContain('The okapi pipeline publishes nightly builds');
  });
});

describe('replicas', () => {
  it("a replica's cache reads the vectors others stored within a second, forgets memories others deleted at its next whole reload, and lets go of owners no longer searched", async () => {
    const env = openAiEnv(embeddingsServer, { EMBEDDINGS_DIMENSIONS: '48' });
    const delta = await startTestServer({ env });
    const reloading = await startTestServer({ env: { ...env, EMBEDDINGS_RELOAD_MS: '1000' } });
    try {
      const org = await createTenant(server.services, server.url, 'Replicas');
      const kept = await save(org.owner, 'The ibis gateway retries failed webhooks three times');
      const deleted = await save(org.owner, 'The ibis gateway signs webhooks with HMAC');
      await server.embeddings.idle();
      const idsOn = (replica: TestServer) => async () =>
        ((await replica.embeddings.index.nearest(scopeOf(org.owner), 'all', 'ibis gateway webhooks', 10)) ?? []).map((hit) => hit.memoryId).sort();
      expect(await idsOn(delta)()).toEqual([kept, deleted].sort());
      expect(await idsOn(reloading)()).toEqual([kept, deleted].sort());
      // Saved and deleted through the first replica: the others hear of neither.
      const added = await save(org.owner, 'The ibis gateway webhooks time out after ten seconds');
      await server.embeddings.idle();
      expect((await org.owner.api.delete(`/v1/memory/${deleted}`)).status).toBe(204);
      await expect.poll(idsOn(delta), { timeout: 10_000, interval: 100 }).toContain(added);
      // Search reads candidates again with the owner filter: a deleted id here never shows.
      expect(await idsOn(delta)()).toContain(deleted);
      await expect.poll(idsOn(reloading), { timeout: 10_000, interval: 100 }).toEqual([kept, added].sort());
      // Whole reloads come from a timer, not from searches: an owner no longer searched keeps
      // being read again until it has been idle for five reload intervals, then leaves the cache.
      expect(reloading.embeddings.status().cache.owners).toBeGreaterThan(0);
      await expect.poll(() => reloading.embeddings.status().cache.owners, { timeout: 15_000, interval: 100 }).toBe(0);
    } finally {
      await delta.close();
      await reloading.close();
    }
  });
});

describe('an outage of the embeddings endpoint', () => {
  let outage: EmbeddingsTestServer;
  let service: TestServer;
  beforeAll(async () => {
    outage = await startEmbeddingsServer();
    // A database of its own: the sweep it runs embeds every org of its database.
    service = await startTestServer({ ownDatabase: true, env: openAiEnv(outage, { EMBEDDINGS_TIMEOUT_MS: '400', EMBEDDINGS_QUERY_DEADLINE_MS: '200' }) });
  });
  afterAll(async () => {
    await service.close();
    await outage.close();
  });

  it('down: saves are 201, search is 200 with lexical results, and the sweep embeds what was missed once it is back', async () => {
    const org = await createTenant(service.services, service.url, 'Outage');
    await outage.down();
    const id = bodyOf(await org.owner.api.post('/v1/memory', { body: { content: 'The capybara runbook says restart the ingest workers first' } }), 201).id;
    await service.embeddings.idle();
    const found = bodyOf(await org.owner.api.get('/v1/memory/search?q=capybara%20runbook'), 200).results;
    expect(found.map((result) => result.id)).toEqual([id]);
    expect(await service.embeddings.index.nearest(scopeOf(org.owner), 'all', 'capybara runbook', 5)).toBeNull();
    expect(service.embeddings.status().providerFailure).toMatch(/unreachable/);
    await outage.up();
    expect(await service.embeddings.backfill!.tryRun()).toBe(true);
    const [rows] = await service.database.pool.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM memory_vectors WHERE memory_id = ?', [id]);
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('hung: saves are 201 and search is 200 with lexical results, without waiting for the endpoint', async () => {
    const org = await createTenant(service.services, service.url, 'Hung');
    outage.hang();
    try {
      const id = bodyOf(await org.owner.api.post('/v1/memory', { body: { content: 'The tapir exporter drops spans above 64 KiB' } }), 201).id;
      const found = bodyOf(await org.owner.api.get('/v1/memory/search?q=tapir%20exporter'), 200).results;
      expect(found.map((result) => result.id)).toEqual([id]);
      await service.embeddings.idle();
      expect(service.embeddings.status().providerFailure).toMatch(/did not answer within 400 ms/);
      // In the cooldown, the semantic leg is off at once.
      expect(await service.embeddings.index.nearest(scopeOf(org.owner), 'all', 'tapir exporter', 5)).toBeNull();
    } finally {
      outage.answer();
    }
  });
});
