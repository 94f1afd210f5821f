import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';
import { expectStatus } from './support/http';

let server: TestServer;
let tenant: TestTenant;
let user: TestUser;

const save = async (who: TestUser, content: string, tags: string[] = []) => {
  const res = await who.api.post('/v1/memory', { body: { content, tags, contexts: [{ snippet: `source of: ${content.slice(0, 20)}` }] } });
  expectStatus(res, 201);
  return res.body.id;
};
const search = async (who: TestUser, q: string, extra = '') => {
  const res = await who.api.get(`/v1/memory/search?q=${encodeURIComponent(q)}${extra}`);
  expectStatus(res, 200);
  return res.body.results;
};

const corpus: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.services, server.url);
  user = tenant.owner;
  const notes: [string, string, string[]?][] = [
    ['replication', 'Postgres replication lag spiked during the failover drill; the replica fell 40 seconds behind.'],
    ['billing', 'Billing runs on Postgres; invoices are generated nightly.'],
    ['lagDinner', 'Dinner with Sam was late because of jet lag.'],
    ['q3', 'Q3 planning: hire two engineers and ship the mobile app.', ['planning']],
    ['go', 'The ingest service is written in Go and deployed on Fly.'],
    ['ui', 'UI review: the settings page needs a dark mode toggle.'],
    ['theWho', 'The Who played Baba O\u2019Riley at the company party.'],
    ['identifier', 'Remember that user_id in the events table is nullable.'],
    ['cafe', 'The café on 3rd street has the best croissants; Zoë recommends the almond one.'],
    ['tokyo', '東京タワーの近くでミーティング'],
  ];
  for (const [name, content, tags] of notes) corpus[name] = await save(user, content, tags);
});
afterAll(() => server.close());

describe('GET /v1/memory/search', () => {
  it('returns results with id, content, tags, score, contexts and created_at', async () => {
    const [first] = await search(user, 'invoices');
    expect(first).toMatchObject({
      id: corpus.billing,
      content: expect.stringContaining('invoices'),
      tags: [],
      score: expect.any(Number),
      contexts: [expect.objectContaining({ snippet: expect.any(String) })],
      created_at: expect.any(String),
      scope: 'user',
    });
    expect(first!.score).toBeGreaterThan(0);
  });

  it('answers each result as the memory read alone, with its tags and timestamps, plus score and match', async () => {
    const [found] = await search(user, 'Q3 planning');
    expect(found!.id).toBe(corpus.q3);
    const read = await user.api.get(`/v1/memory/${corpus.q3}`);
    expectStatus(read, 200);
    expect(read.body.tags).toEqual(['planning']);
    expect(read.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const { score, match, ...memory } = found as typeof found & { match: unknown };
    expect(memory).toEqual(read.body);
    expect(score).toBeGreaterThan(0);
    expect(match).toBeDefined();
  });

  it('ranks the better match first and orders by score', async () => {
    const results = await search(user, 'postgres replication lag');
    expect(results[0]!.id).toBe(corpus.replication);
    const ids = results.map((r) => r.id);
    expect(ids).toContain(corpus.billing);
    expect(ids).toContain(corpus.lagDinner);
    const scores = results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('finds short tokens that InnoDB would not index: Q3, Go, UI', async () => {
    expect((await search(user, 'Q3')).map((r) => r.id)).toEqual([corpus.q3]);
    expect((await search(user, 'go')).map((r) => r.id)).toEqual([corpus.go]);
    expect((await search(user, 'UI')).map((r) => r.id)).toEqual([corpus.ui]);
    expect((await search(user, 'q3 UI')).map((r) => r.id).sort()).toEqual([corpus.q3, corpus.ui].sort());
  });

  it('finds a query made only of stopwords', async () => {
    expect((await search(user, 'the who')).map((r) => r.id)[0]).toBe(corpus.theWho);
  });

  it('is case- and accent-form-insensitive the way people type', async () => {
    expect((await search(user, 'CAFÉ')).map((r) => r.id)).toEqual([corpus.cafe]);
    expect((await search(user, 'Zoe\u0308')).map((r) => r.id)).toEqual([corpus.cafe]);
  });

  it('finds identifiers whole and in parts', async () => {
    expect((await search(user, 'user_id'))[0]!.id).toBe(corpus.identifier);
    expect((await search(user, 'nullable')).map((r) => r.id)).toEqual([corpus.identifier]);
  });

  it('finds ideographic text by character', async () => {
    expect((await search(user, '東京')).map((r) => r.id)).toEqual([corpus.tokyo]);
  });

  it('never fails on operators, quotes or injection attempts', async () => {
    const hostile = [
      '+foo -bar "baz*',
      '"unclosed',
      '***',
      '@@@ ~~ <> () +-',
      "' OR 1=1 --",
      '\\',
      '%_%',
      ');DROP TABLE memory;--',
      'MATCH(content) AGAINST("x")',
      '🎉🎉',
      '+postgres -billing',
      '"postgres replication"',
      'a'.repeat(512),
      'x '.repeat(256),
    ];
    for (const q of hostile) await search(user, q);
    // Operators are text: "-billing" does not exclude, it is just a word.
    expect((await search(user, '+postgres -billing')).map((r) => r.id)).toContain(corpus.billing);
  });

  it('answers no match with an empty list, not 404', async () => {
    expect(await search(user, 'xylophone')).toEqual([]);
  });

  it('respects limit and tag', async () => {
    expect(await search(user, 'the postgres lag Q3', '&limit=2')).toHaveLength(2);
    expect((await search(user, 'Q3 postgres', '&tag=planning')).map((r) => r.id)).toEqual([corpus.q3]);
    expect(await search(user, 'postgres', '&tag=nope')).toEqual([]);
  });

  it('breaks score ties newest first, stably', async () => {
    const solo = (await createTenant(server.services, server.url)).owner;
    // Equal text would be one memory (a duplicate): the same words in another order tie.
    const older = await save(solo, 'identical twin note');
    const newer = await save(solo, 'note twin identical');
    for (let i = 0; i < 3; i++) expect((await search(solo, 'twin')).map((r) => r.id)).toEqual([newer, older]);
  });

  it('never shows deleted memories', async () => {
    const id = await save(user, 'temporary kumquat thought');
    expect((await search(user, 'kumquat')).map((r) => r.id)).toEqual([id]);
    expect((await user.api.delete(`/v1/memory/${id}`)).status).toBe(204);
    expect(await search(user, 'kumquat')).toEqual([]);
  });

  it("never shows another user's or another org's memories, even sharing every word", async () => {
    // Users of their own: the shared corpus keeps only its own words.
    const me = await tenant.addMember('member');
    const colleague = await tenant.addMember('member');
    const stranger = (await createTenant(server.services, server.url)).owner;
    const mine = await save(me, 'shared secret rutabaga Q3 go');
    const colleagues = await save(colleague, 'shared secret rutabaga Q3 go');
    const strangers = await save(stranger, 'shared secret rutabaga Q3 go');
    for (const q of ['rutabaga', 'shared secret', 'Q3', 'go rutabaga']) {
      const ids = (await search(me, q)).map((r) => r.id);
      expect(ids).toContain(mine);
      expect(ids).not.toContain(colleagues);
      expect(ids).not.toContain(strangers);
      expect((await search(colleague, q)).map((r) => r.id)).toEqual([colleagues]);
      expect((await search(stranger, q)).map((r) => r.id)).toEqual([strangers]);
    }
    const list = await me.api.get('/v1/memory?limit=100');
    expectStatus(list, 200);
    expect(list.body.memories.map((m) => m.id)).not.toContain(colleagues);
  });
});
