import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { expectStatus } from './support/http';

/**
 * Typo correction: a query word in neither the owner's words nor a dictionary is also
 * searched as the owner's nearest words, and the answer says so.
 */

let server: TestServer;
let user: TestUser;
let neighbour: TestUser;
const ids: Record<string, string> = {};

const save = async (who: TestUser, content: string) => {
  const res = await who.api.post('/v1/memory', { body: { content } });
  expectStatus(res, 201);
  return res.body.id;
};
const search = async (who: TestUser, q: string) => {
  const res = await who.api.get(`/v1/memory/search?q=${encodeURIComponent(q)}&mode=lexical`);
  expectStatus(res, 200);
  return res.body;
};

beforeAll(async () => {
  server = await startTestServer();
  user = (await createTenant(server.services, server.url)).owner;
  neighbour = (await createTenant(server.services, server.url)).owner;
  const notes: Record<string, string> = {
    pool: 'PgBouncer runs in transaction pooling mode with a pool size of 40.',
    search: 'Elasticsearch was replaced by the built-in FULLTEXT search.',
    rollback: 'The rollback plan: redeploy the previous image and restore the snapshot.',
    lookup: 'getUserById hits the read replica, never the primary.',
    retries: 'retry_count is capped at five for the webhook sender.',
    month: 'The invoice run happens on the first day of each month.',
  };
  for (const [key, content] of Object.entries(notes)) ids[key] = await save(user, content);
  await save(neighbour, 'Kubernetes node pools autoscale between three and twelve nodes.');
});
afterAll(() => server.close());

describe('typo correction', () => {
  it('searches a misspelt word as the owner\'s nearest word, and says so on the answer and the result', async () => {
    const body = await search(user, 'pgbouncr pool size');
    expect(body.corrected_query).toBe('pgbouncer pool size');
    const [first] = body.results;
    expect(first!.id).toBe(ids.pool);
    expect(first!.match.corrections).toEqual([{ from: 'pgbouncr', to: 'pgbouncer' }]);
    const content: string = first!.content;
    const corrected = first!.match.highlights.filter((h: { kind: string }) => h.kind === 'correction');
    expect(corrected.map((h: { start: number; end: number }) => content.slice(h.start, h.end))).toEqual(['PgBouncer']);
  });

  it('corrects swapped, missing and doubled letters, in words and identifiers, up to the bound by length', async () => {
    for (const [q, key, to] of [
      ['Elasticsearh', 'search', 'elasticsearch'],
      ['rollbak plan', 'rollback', 'rollback'],
      ['getUserByIdd', 'lookup', 'getuserbyid'],
      ['retyr_count', 'retries', 'retry_count'],
    ] as const) {
      const body = await search(user, q);
      expect({ q, first: body.results[0]?.id }).toEqual({ q, first: ids[key] });
      expect(body.results[0]!.match.corrections.map((c: { to: string }) => c.to)).toEqual([to]);
    }
  });

  it('writes the corrected query as the query was written: capitals kept, the owner\'s accents given', async () => {
    expect((await search(user, 'Elasticsearh')).corrected_query).toBe('Elasticsearch');
    expect((await search(user, 'ROLLBAK plan')).corrected_query).toBe('ROLLBACK plan');
    await save(user, 'La réunion d\'équipe a lieu le lundi.');
    expect((await search(user, 'réunoin lundi')).corrected_query).toBe('réunion lundi');
    expect((await search(user, 'reunoin lundi')).corrected_query).toBe('réunion lundi');
  });

  it('ranks a corrected match below the word itself', async () => {
    const exact = await save(user, 'PgBouncr is what the vendor docs misspell it as, says Dana.');
    try {
      // The owner has the word as written now: it is not corrected at all.
      const body = await search(user, 'pgbouncr');
      expect(body.corrected_query).toBeNull();
      expect(body.results.map((r: { id: string }) => r.id)).toEqual([exact]);
    } finally {
      expectStatus(await user.api.delete(`/v1/memory/${exact}`), 204);
    }
  });

  it('leaves dictionary words, short words and words being typed alone', async () => {
    // "mouth" is one letter from the owner's "month", but English.
    expect((await search(user, 'mouth')).corrected_query).toBeNull();
    // Four letters: too short to tell a typo from another word.
    expect((await search(user, 'pokl')).corrected_query).toBeNull();
    // A number is never a typo of another: ticket 104822 is not ticket 104823.
    const ticket = await save(user, 'Ticket 104823 tracks the webhook retries.');
    try {
      expect((await search(user, '104822')).corrected_query).toBeNull();
      expect((await search(user, '104822')).results).toEqual([]);
    } finally {
      expectStatus(await user.api.delete(`/v1/memory/${ticket}`), 204);
    }
    // The last word is being typed: a prefix of the owner's word, found as such.
    const typed = await search(user, 'Elastics');
    expect(typed.corrected_query).toBeNull();
    expect(typed.results[0]!.id).toBe(ids.search);
  });

  it('corrects from the owner\'s own words only: another tenant\'s words are never offered', async () => {
    const body = await search(user, 'kuberentes');
    expect(body.corrected_query).toBeNull();
    expect(body.results).toEqual([]);
    const theirs = await search(neighbour, 'kuberentes');
    expect(theirs.corrected_query).toBe('kubernetes');
    expect(theirs.results).toHaveLength(1);
  });
});
