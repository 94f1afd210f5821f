import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';
import { bodyOf, expectStatus, type RequestBody } from './support/http';

// GET /v1/memory?source=, GET /v1/memory/search?source= and GET /v1/admin/audit?since=&until=:
// filters applied by the database, so they hold across cursor pages (and beyond the
// candidates a search ranks) and never cross orgs.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ownDatabase: true });
});
afterAll(() => server.close());

/** Each test's own org (with a member) and another org: what they hold is what the test saved. */
async function orgs(): Promise<{ org: TestTenant; member: TestUser; other: TestTenant }> {
  const org = await createTenant(server.services, server.url, 'filters org');
  return { org, member: await org.addMember('member'), other: await createTenant(server.services, server.url, 'filters other org') };
}

const save = async (who: TestUser, body: RequestBody<'post', '/v1/memory'>): Promise<string> => bodyOf(await who.api.post('/v1/memory', { body }), 201).id;
/** Saved over REST; marked as saved another way in the row itself (what the MCP and hook paths write). */
const markSource = (ids: string[], source: 'mcp' | 'hook') => server.database.pool.query('UPDATE memory SET source = ? WHERE id IN (?)', [source, ids]);

/** Every page of a list, following next_cursor (`page` gets the `&cursor=…` to append). */
async function allPages<T>(page: (cursor: string) => Promise<{ items: T[]; next_cursor: string | null }>): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const answer = await page(cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
    items.push(...answer.items);
    cursor = answer.next_cursor;
    pages++;
  } while (cursor !== null && pages < 50);
  return { items, pages };
}
const memoryPages = (who: TestUser, query: string) =>
  allPages(async (cursor) => {
    const { memories, next_cursor } = bodyOf(await who.api.get(`/v1/memory?${query}${cursor}`), 200);
    return { items: memories, next_cursor };
  });
const auditPages = (who: TestUser, query: string) =>
  allPages(async (cursor) => {
    const { events, next_cursor } = bodyOf(await who.api.get(`/v1/admin/audit?${query}${cursor}`), 200);
    return { items: events, next_cursor };
  });

describe('GET /v1/memory?source=', () => {
  it('lists only memories saved that way, across cursor pages, with tag and scope, in the caller org only', async () => {
    const { org, member, other } = await orgs();
    const api: string[] = [];
    const mcp: string[] = [];
    // Interleaved, so a page of the unfiltered list mixes sources.
    for (let i = 0; i < 5; i++) {
      api.push(await save(member, { content: `api note ${i}`, tags: ['t'] }));
      mcp.push(await save(member, { content: `mcp note ${i}`, tags: i % 2 === 0 ? ['t'] : [] }));
    }
    const sharedHook = await save(org.owner, { content: 'shared hook note', scope: 'org' });
    await markSource(mcp, 'mcp');
    await markSource([sharedHook], 'hook');
    const otherMcp = await save(other.owner, { content: 'other org mcp note', scope: 'org' });
    await markSource([otherMcp], 'mcp');

    const byMcp = await memoryPages(member, 'source=mcp&limit=2');
    expect(byMcp.items.map((m) => m.id)).toEqual([...mcp].reverse());
    expect(byMcp.pages).toBe(3);
    expect(byMcp.items.every((m) => m.source === 'mcp')).toBe(true);

    const byApi = await memoryPages(member, 'source=api&scope=user&limit=3');
    expect(byApi.items.map((m) => m.id)).toEqual([...api].reverse());

    const tagged = await memoryPages(member, 'source=mcp&tag=t&limit=1');
    expect(tagged.items.map((m) => m.id)).toEqual([mcp[4], mcp[2], mcp[0]]);

    expect((await memoryPages(member, 'source=hook&limit=5')).items.map((m) => m.id)).toEqual([sharedHook]);
    expect(bodyOf(await member.api.get('/v1/memory?source=hook&scope=user'), 200).memories).toEqual([]);
    // The other org's mcp memory is in neither org's list but its own.
    expect(bodyOf(await org.owner.api.get('/v1/memory?source=mcp&limit=100'), 200).memories).toEqual([]);
    expect(bodyOf(await other.owner.api.get('/v1/memory?source=mcp'), 200).memories.map((m) => m.id)).toEqual([otherMcp]);

    const bad = await member.api.get('/v1/memory?source=email');
    expectStatus(bad, 400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(bad.body.errors?.map((e) => e.path)).toContain('source');
  });
});

describe('GET /v1/memory/search?source=', () => {
  it('finds memories saved that way even where more of the others match better, in the caller org only', async () => {
    const { member, other } = await orgs();
    // The mcp ones first, then more api ones than a search ranks as candidates (64), all
    // matching alike: newer ones win ties, so a filter applied to the ranked page would miss them.
    const mcp: string[] = [];
    for (let i = 0; i < 3; i++) mcp.push(await save(member, { content: `okapi sighting ${i}` }));
    await markSource(mcp, 'mcp');
    for (let i = 0; i < 70; i++) await save(member, { content: `okapi sighting ${i + 3}` });
    const otherMcp = await save(other.owner, { content: 'okapi sighting elsewhere' });
    await markSource([otherMcp], 'mcp');

    const search = async (query: string) => {
      const res = await member.api.get(`/v1/memory/search?q=okapi&limit=50${query}`);
      expectStatus(res, 200);
      return res.body.results.map((result) => result.id);
    };
    expect((await search('')).filter((id) => mcp.includes(id))).toEqual([]);
    expect((await search('&source=mcp')).sort()).toEqual([...mcp].sort());
    expect(await search('&source=hook')).toEqual([]);
    expect(await search('&source=mcp&scope=org')).toEqual([]);
    expect(await search('&source=api')).toHaveLength(50);

    const bad = await member.api.get('/v1/memory/search?q=okapi&source=email');
    expectStatus(bad, 400);
    expect(bad.body.errors?.map((e) => e.path)).toContain('source');
  });
});

describe('GET /v1/admin/audit?since=&until=', () => {
  it('keeps events with since <= created_at < until, across cursor pages, with action, in the caller org only', async () => {
    const { org, other } = await orgs();
    const created: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await org.owner.api.post('/v1/api-keys', { body: { name: `audited ${i}` } });
      expectStatus(res, 201);
      created.push(res.body.id);
    }
    const otherKey = await other.owner.api.post('/v1/api-keys', { body: { name: 'other audited' } });
    expectStatus(otherKey, 201);
    // Key i is created on 2030-01-0(i+1) at noon UTC; the other org's on 2030-01-03 too.
    for (const [i, id] of created.entries()) {
      await server.database.pool.query('UPDATE audit_events SET created_at = ? WHERE target_id = ?', [`2030-01-0${i + 1} 12:00:00.000`, id]);
    }
    await server.database.pool.query('UPDATE audit_events SET created_at = ? WHERE target_id = ?', ['2030-01-03 12:00:00.000', otherKey.body.id]);

    // Jan 2 12:00 (inclusive) to Jan 5 12:00 (exclusive), written with an offset: keys 1, 2, 3.
    const range = `since=${encodeURIComponent('2030-01-02T13:00:00+01:00')}&until=2030-01-05T12:00:00Z`;
    const window = await auditPages(org.owner, `${range}&limit=2`);
    expect(window.items.map((e) => e.target.id)).toEqual([created[3], created[2], created[1]]);
    expect(window.pages).toBe(2);
    expect(window.items.map((e) => e.created_at)).toEqual(['2030-01-04T12:00:00.000Z', '2030-01-03T12:00:00.000Z', '2030-01-02T12:00:00.000Z']);

    const withAction = await auditPages(org.owner, `${range}&action=api_key.revoke`);
    expect(withAction.items).toEqual([]);
    const sinceOnly = await auditPages(org.owner, 'since=2030-01-05T12:00:00.000Z&limit=1');
    expect(sinceOnly.items.map((e) => e.target.id)).toEqual([created[5], created[4]]);
    const untilOnly = bodyOf(await org.owner.api.get('/v1/admin/audit?until=2030-01-01T12:00:00.001Z&limit=100'), 200).events;
    expect(untilOnly.map((e) => e.target.id)).toContain(created[0]);
    expect(untilOnly.map((e) => e.target.id)).not.toContain(created[1]);

    // The other org's event in the same window is its own.
    expect(window.items.map((e) => e.target.id)).not.toContain(otherKey.body.id);
    expect(bodyOf(await other.owner.api.get(`/v1/admin/audit?${range}`), 200).events.map((e) => e.target.id)).toEqual([otherKey.body.id]);

    for (const query of ['since=yesterday', 'until=2030-01-05', 'since=2030-01-05T12:00:00', 'since=2030-01-05T12:00:00Z&until=2030-01-05T12:00:00Z', 'since=2030-01-06T00:00:00Z&until=2030-01-05T00:00:00Z']) {
      const res = await org.owner.api.get(`/v1/admin/audit?${query}`);
      expectStatus(res, 400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.type, query).toBe('urn:memory-bank:problem:validation_failed');
    }
  });
});
