import { indexTerms, memory, newId, searchTag } from '@memory-bank/db';
import { reindexMemorySearch, type ReindexProgress } from '@memory-bank/db/system';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { bodyOf, expectStatus } from './support/http';

let server: TestServer;
let user: TestUser;
let userId: string;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer({ ownDatabase: true });
  const tenant = await createTenant(server.services, server.url);
  user = tenant.owner;
  const probe = await user.api.post('/v1/memory', { body: { content: 'probe' } });
  expectStatus(probe, 201);
  ({ userId, orgId } = user);
});
afterAll(() => server.close());

/** A memory as the service wrote it before search_version existed: old terms, no statistics. */
async function saveInOldFormat(content: string): Promise<string> {
  const now = new Date();
  const id = newId('memory', now);
  await server.database.db.insert(memory).values({
    id, orgId, userId, scope: 'user', source: 'api', content, tags: [], contextCount: 0, createdAt: now, updatedAt: now,
    searchTerms: indexTerms(searchTag('u', userId), content),
    searchVersion: 0,
  });
  return id;
}
const search = async (q: string) => bodyOf(await user.api.get(`/v1/memory/search?q=${encodeURIComponent(q)}`), 200).results.map((r) => r.id);
const ownerDocs = async () => {
  const [rows] = (await server.database.db.execute(sql`SELECT docs FROM memory_term_stats WHERE owner_id = ${userId} AND term = ''`)) as unknown as [{ docs: number }[]];
  return Number(rows[0]?.docs ?? 0);
};

describe('re-indexing memories saved in an older search format', () => {
  it('finds them by exact word before, by stem and identifier part after, and counts them in the statistics', async () => {
    const counted = await ownerDocs();
    const old = [];
    for (let i = 0; i < 5; i++) old.push(await saveInOldFormat(`Deployed the OrderSync worker, attempt ${i}`));
    expect((await search('deployed')).sort()).toEqual([...old].sort());
    expect(await search('deploying')).toEqual([]);
    expect(await ownerDocs()).toBe(counted);

    const seen: ReindexProgress[] = [];
    const result = await reindexMemorySearch(server.database.pool, { batchSize: 2, onProgress: (p) => seen.push(p) });
    expect(result).toEqual({ done: 5, total: 5 });
    expect(seen.map((p) => p.done)).toEqual([0, 2, 4, 5]);
    expect((await search('deploying')).sort()).toEqual([...old].sort());
    expect((await search('order sync')).sort()).toEqual([...old].sort());
    expect(await ownerDocs()).toBe(counted + 5);
    // Nothing left: a second run does nothing.
    expect(await reindexMemorySearch(server.database.pool)).toEqual({ done: 0, total: 0 });
  });

  it('keeps the statistics right when an old memory is changed or deleted before its turn', async () => {
    const changed = await saveInOldFormat('Rutabaga harvest notes');
    const deleted = await saveInOldFormat('Rutabaga storage notes');
    const before = await ownerDocs();
    expect((await user.api.patch(`/v1/memory/${changed}`, { body: { content: 'Parsnip harvest notes' } })).status).toBe(200);
    expect(await ownerDocs()).toBe(before + 1);
    expect((await user.api.delete(`/v1/memory/${deleted}`)).status).toBe(204);
    expect(await ownerDocs()).toBe(before + 1);
    expect(await reindexMemorySearch(server.database.pool)).toEqual({ done: 0, total: 0 });
  });
});
