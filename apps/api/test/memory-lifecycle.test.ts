import { backfillMemoryContentKeys } from '@memory-bank/db/system';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, expectStatus, type RequestBody } from './support/http';
import { newSessionId } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';

/**
 * Issue 42, the save and read path: duplicates, similar memories, supersede chains and
 * their history, deleting a chain, expiry on every read, pins, sort=recent, and export and
 * import keeping chains. The clock runs `ahead` ms ahead of the wall clock, so expiry needs
 * no waiting.
 */
let server: TestServer;
let tenant: TestTenant;
let ahead = 0;

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(Date.now() + ahead) } });
  tenant = await createTenant(server.services, server.url, 'Lifecycle org');
});
afterAll(() => server?.close());

type SaveBody = RequestBody<'post', '/v1/memory'>;
const save = (user: TestUser, body: SaveBody) => user.api.post('/v1/memory', { body });
const saved = async (user: TestUser, body: SaveBody) => bodyOf(await save(user, body), 201);

async function rows(sql: string, params: unknown[]): Promise<mysql.RowDataPacket[]> {
  const [found] = await server.database.pool.query<mysql.RowDataPacket[]>(sql, params);
  return found;
}

describe('duplicates', () => {
  it('an equal save (NFC, case, white space) adds its contexts and tags to the live memory and answers 200', async () => {
    const user = await tenant.addMember('member');
    const first = await saved(user, { content: 'The café deploy runs on Fridays', tags: ['ops'], contexts: [{ snippet: 'first source' }] });
    // Decomposed é (e + U+0301), other case, other white space.
    const again = await save(user, { content: '  the CAFE\u0301   deploy runs\non fridays ', tags: ['deploys', 'ops'], contexts: [{ snippet: 'second source' }] });
    expectStatus(again, 200);
    expect(again.body).toMatchObject({ id: first.id, duplicate: true, content: 'The café deploy runs on Fridays', tags: ['ops', 'deploys'] });
    expect(again.body.contexts.map((context) => context.snippet)).toEqual(['first source', 'second source']);
    expect(bodyOf(await user.api.get('/v1/memory?scope=user'), 200).memories.map((memory) => memory.id)).toEqual([first.id]);
  });

  it('is per owner and scope: another member, or the org scope, saves its own', async () => {
    const admin = await tenant.addMember('admin');
    const member = await tenant.addMember('member');
    const mine = await saved(admin, { content: 'Staging database is pg-stage-2' });
    expect((await save(member, { content: 'Staging database is pg-stage-2' })).status).toBe(201);
    const shared = await saved(admin, { content: 'Staging database is pg-stage-2', scope: 'org' });
    expect(shared.id).not.toBe(mine.id);
    // Another admin's equal org-shared save is a duplicate of the org's memory.
    const other = await tenant.addMember('admin');
    expect(bodyOf(await save(other, { content: 'staging database is PG-STAGE-2', scope: 'org' }), 200).id).toBe(shared.id);
  });

  it('20 concurrent equal saves of one owner make one memory', async () => {
    const user = await tenant.addMember('member');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => save(user, { content: 'Concurrent equal fact', contexts: [{ snippet: `source ${i}` }] })));
    expect(answers.map((res) => res.status).sort()).toEqual([...Array(19).fill(200), 201]);
    const ids = new Set(answers.map((res) => (res.body as { id: string }).id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(await rows('SELECT id FROM memory WHERE org_id = ? AND user_id = ?', [tenant.orgId, user.userId])).toHaveLength(1);
    expect(bodyOf(await user.api.get(`/v1/memory/${id}` as '/v1/memory/{id}'), 200).contexts).toHaveLength(20);
  });

  it('memories saved before content keys existed are keyed by the start-up backfill, then found as duplicates', async () => {
    const user = await tenant.addMember('member');
    const old = await saved(user, { content: 'Saved before keys existed' });
    await server.database.pool.query('UPDATE memory SET content_key = NULL WHERE org_id = ? AND id = ?', [tenant.orgId, old.id]);
    expect((await save(user, { content: 'saved before KEYS existed' })).status).toBe(201);
    expect(await backfillMemoryContentKeys(server.database.db)).toBeGreaterThanOrEqual(1);
    expect(bodyOf(await save(user, { content: 'Saved   before keys existed' }), 200).duplicate).toBe(true);
  });

  it('an org with dedupe_memories off keeps equal saves apart', async () => {
    const other = await createTenant(server.services, server.url, 'Keeps duplicates');
    await server.database.pool.query('UPDATE orgs SET dedupe_memories = 0 WHERE id = ?', [other.orgId]);
    await server.keyCache.changed(other.orgId);
    expect((await save(other.owner, { content: 'Twice on purpose' })).status).toBe(201);
    expect((await save(other.owner, { content: 'Twice on purpose' })).status).toBe(201);
  });
});

describe('similar', () => {
  it('a save answers up to 3 other live memories much like it, with their score; unrelated ones are not', async () => {
    const user = await tenant.addMember('member');
    const old = await saved(user, { content: 'The payments service deploys every Friday at 17:00 from the release branch' });
    await saved(user, { content: 'Lunch orders go to the kitchen channel' });
    const created = await saved(user, { content: 'The payments service deploys every Friday at 18:00 from the release branch' });
    expect(created.similar.map((memory) => memory.id)).toEqual([old.id]);
    expect(created.similar[0]).toMatchObject({ content: old.content, score: expect.any(Number) });
    expect(created.similar[0]!.score).toBeGreaterThanOrEqual(0.5);
    expect(created.similar[0]!.score).toBeLessThanOrEqual(1);
    expect((await saved(user, { content: 'Quarterly planning is in March' })).similar).toEqual([]);
  });
});

describe('supersede', () => {
  it('a chain of 5 reads back newest first; only its head is listed, searched or recalled; deleting the head deletes them all', async () => {
    const user = await tenant.addMember('member');
    const ids: string[] = [];
    for (let version = 1; version <= 5; version++) {
      const body: SaveBody = { content: `The okapi cluster runs Kubernetes 1.${27 + version}`, ...(ids.length > 0 && { supersedes: [ids.at(-1)!] }) };
      ids.push((await saved(user, body)).id);
    }
    const newestFirst = [...ids].reverse();
    for (const id of [ids[0]!, ids[2]!, ids[4]!]) {
      expect(bodyOf(await user.api.get(`/v1/memory/${id}/history` as '/v1/memory/{id}/history'), 200).memories.map((memory) => memory.id)).toEqual(newestFirst);
    }
    const oldest = bodyOf(await user.api.get(`/v1/memory/${ids[0]}` as '/v1/memory/{id}'), 200);
    expect(oldest.superseded_by).toBe(ids[1]);
    expect(bodyOf(await user.api.get('/v1/memory?scope=user'), 200).memories.map((memory) => memory.id)).toEqual([ids[4]]);
    expect(bodyOf(await user.api.get('/v1/memory/search?q=okapi'), 200).results.map((memory) => memory.id)).toEqual([ids[4]]);
    const all = bodyOf(await user.api.get('/v1/memory?include_superseded=true&scope=user'), 200).memories;
    expect(all.map((memory) => [memory.id, memory.superseded_by])).toEqual(newestFirst.map((id, i) => [id, i === 0 ? null : newestFirst[i - 1]]));
    expect(bodyOf(await user.api.get('/v1/memory/search?q=okapi&include_superseded=true'), 200).results).toHaveLength(5);
    const recalled = bodyOf(await user.api.post('/v1/recall', { body: { session_id: newSessionId(), harness: 'claude-code', trigger: 'prompt', prompt: 'Which Kubernetes does the okapi cluster run?' } }), 200);
    expect(recalled.memories.map((memory) => memory.id).filter((id) => ids.includes(id))).toEqual([ids[4]]);

    expect((await user.api.delete(`/v1/memory/${ids[4]}` as '/v1/memory/{id}')).status).toBe(204);
    expect(await rows('SELECT id FROM memory WHERE org_id = ? AND id IN (?)', [tenant.orgId, ids])).toEqual([]);
    expect(bodyOf(await user.api.get('/v1/memory?include_superseded=true&scope=user'), 200).memories).toEqual([]);
  });

  it('deleting an older version deletes only it; the versions before it are then replaced by its successor', async () => {
    const user = await tenant.addMember('member');
    const a = await saved(user, { content: 'Version A of the lemur plan' });
    const b = await saved(user, { content: 'Version B of the lemur plan', supersedes: [a.id] });
    const c = await saved(user, { content: 'Version C of the lemur plan', supersedes: [b.id] });
    expect((await user.api.delete(`/v1/memory/${b.id}` as '/v1/memory/{id}')).status).toBe(204);
    expect(bodyOf(await user.api.get(`/v1/memory/${c.id}/history` as '/v1/memory/{id}/history'), 200).memories.map((memory) => memory.id)).toEqual([c.id, a.id]);
    expect(bodyOf(await user.api.get(`/v1/memory/${a.id}` as '/v1/memory/{id}'), 200).superseded_by).toBe(c.id);
  });

  it("another owner's id is 404, an already superseded one 409, the save itself 400; nothing is stored", async () => {
    const user = await tenant.addMember('member');
    const stranger = (await createTenant(server.services, server.url, 'Stranger org')).owner;
    const theirs = await saved(stranger, { content: 'Stranger fact about gibbons' });
    const colleague = await saved(await tenant.addMember('member'), { content: 'Colleague fact about gibbons' });
    for (const id of [theirs.id, colleague.id, 'mem_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const res = await save(user, { content: `Replaces ${id}`, supersedes: [id] });
      expect(res.status, id).toBe(404);
    }
    const old = await saved(user, { content: 'Gibbon enclosure opens at 9' });
    await saved(user, { content: 'Gibbon enclosure opens at 10', supersedes: [old.id] });
    const twice = await save(user, { content: 'Gibbon enclosure opens at 11', supersedes: [old.id] });
    expect(twice.status).toBe(409);
    const live = await saved(user, { content: 'Gibbon keeper is Ana' });
    const itself = await save(user, { content: 'gibbon keeper is ANA', supersedes: [live.id] });
    expectStatus(itself, 400);
    expect(itself.body).toMatchObject({ errors: [{ path: 'supersedes' }] });
    const invalid = await user.api.unchecked.post('/v1/memory', { body: { content: 'x', supersedes: ['not-an-id'] } });
    expect(invalid.status).toBe(400);
    const contents = bodyOf(await user.api.get('/v1/memory?include_superseded=true&scope=user&limit=100'), 200).memories.map((memory) => memory.content);
    expect(contents.filter((content) => content.startsWith('Replaces') || content.endsWith('at 11'))).toEqual([]);
    expect(bodyOf(await stranger.api.get(`/v1/memory/${theirs.id}` as '/v1/memory/{id}'), 200).superseded_by).toBeNull();
  });

  it('export and import keep chains', async () => {
    const user = await tenant.addMember('member');
    const v1 = await saved(user, { content: 'Tapir feeding at noon' });
    await saved(user, { content: 'Tapir feeding at one', supersedes: [v1.id] });
    const exported = await fetch(`${server.url}/v1/memory/export?scope=user`, { headers: { authorization: `Bearer ${user.key}` } });
    const file = await exported.text();
    expect(file.split('\n').filter(Boolean)).toHaveLength(2);
    const target = (await createTenant(server.services, server.url, 'Import target')).owner;
    const imported = await fetch(`${server.url}/v1/memory/import`, { method: 'POST', headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/x-ndjson' }, body: file });
    expect(await imported.json()).toMatchObject({ imported: 2, failed: 0 });
    const listed = bodyOf(await target.api.get('/v1/memory?include_superseded=true'), 200).memories;
    const newest = listed.find((memory) => memory.content === 'Tapir feeding at one');
    expect(newest).toMatchObject({ superseded_by: null });
    expect(listed.find((memory) => memory.content === 'Tapir feeding at noon')).toMatchObject({ superseded_by: newest!.id });
  });
});

describe('import of a hostile file', () => {
  it('lines that replace each other in a circle are imported without a circle', async () => {
    const user = await tenant.addMember('member');
    const [a, b] = ['mem_01ARZ3NDEKTSV4RRFFQ69G5FAA', 'mem_01ARZ3NDEKTSV4RRFFQ69G5FAB'];
    const file = [
      { id: a, superseded_by: b, content: 'Circle line A about quolls' },
      { id: b, superseded_by: a, content: 'Circle line B about quolls' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const res = await fetch(`${server.url}/v1/memory/import`, { method: 'POST', headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/x-ndjson' }, body: file });
    expect(await res.json()).toMatchObject({ imported: 2, failed: 0 });
    const listed = bodyOf(await user.api.get('/v1/memory?include_superseded=true&scope=user'), 200).memories;
    expect(listed).toHaveLength(2);
    // One of them stays current; the history of either is the two, newest first, and ends.
    expect(listed.filter((memory) => memory.superseded_by === null)).toHaveLength(1);
    for (const memory of listed) expect(bodyOf(await user.api.get(`/v1/memory/${memory.id}/history` as '/v1/memory/{id}/history'), 200).memories).toHaveLength(2);
  });
});

describe('expiry and pins', () => {
  it('an expired memory is gone from every read at its expiry; PATCH moves or clears an expiry', async () => {
    const user = await tenant.addMember('member');
    const brief = await saved(user, { content: 'Sprint 42 demo is on Thursday (tamarin)', ttl_seconds: 60, pinned: true });
    expect(brief.pinned).toBe(true);
    expect(new Date(brief.expires_at!).getTime() - new Date(brief.created_at).getTime()).toBe(60_000);
    const kept = await saved(user, { content: 'Tamarin keeper rota lives in the wiki', expires_at: new Date(Date.now() + ahead + 60_000).toISOString() });
    expect(bodyOf(await user.api.patch(`/v1/memory/${kept.id}` as '/v1/memory/{id}', { body: { expires_at: null } }), 200).expires_at).toBeNull();
    ahead += 61_000;
    try {
      expect((await user.api.get(`/v1/memory/${brief.id}` as '/v1/memory/{id}')).status).toBe(404);
      expect((await user.api.get(`/v1/memory/${brief.id}/history` as '/v1/memory/{id}/history')).status).toBe(404);
      expect(bodyOf(await user.api.get('/v1/memory?include_superseded=true&scope=user'), 200).memories.map((memory) => memory.id)).toEqual([kept.id]);
      expect(bodyOf(await user.api.get('/v1/memory/search?q=tamarin&scope=user'), 200).results.map((memory) => memory.id)).toEqual([kept.id]);
      const exported = await (await fetch(`${server.url}/v1/memory/export`, { headers: { authorization: `Bearer ${user.key}` } })).text();
      expect(exported).not.toContain('Sprint 42');
      expect((await user.api.patch(`/v1/memory/${brief.id}` as '/v1/memory/{id}', { body: { pinned: false } })).status).toBe(404);
      // An equal save after expiry is a new memory, not a duplicate of the expired one.
      expect((await save(user, { content: 'Sprint 42 demo is on Thursday (tamarin)' })).status).toBe(201);
    } finally {
      ahead -= 61_000;
    }
  });

  it('refuses a bad expiry with a 400 naming the field, and stores nothing', async () => {
    const user = await tenant.addMember('member');
    const cases: [Record<string, unknown>, string][] = [
      [{ ttl_seconds: 0 }, 'ttl_seconds'],
      [{ ttl_seconds: -5 }, 'ttl_seconds'],
      [{ ttl_seconds: 1.5 }, 'ttl_seconds'],
      [{ ttl_seconds: 10 * 365 * 24 * 3600 + 1 }, 'ttl_seconds'],
      [{ expires_at: new Date(Date.now() - 1000).toISOString() }, 'expires_at'],
      [{ expires_at: 'tomorrow' }, 'expires_at'],
      [{ expires_at: new Date(Date.now() + 60_000).toISOString(), ttl_seconds: 60 }, 'ttl_seconds'],
    ];
    for (const [fields, path] of cases) {
      const res = await user.api.unchecked.post('/v1/memory', { body: { content: `bad expiry ${JSON.stringify(fields)}`, ...fields } });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(JSON.stringify(res.body.errors), JSON.stringify(fields)).toContain(path);
    }
    expect(bodyOf(await user.api.get('/v1/memory?scope=user'), 200).memories).toEqual([]);
  });

  it('pins on save and PATCH', async () => {
    const user = await tenant.addMember('member');
    const memory = await saved(user, { content: 'Always run the linter before committing' });
    expect(memory.pinned).toBe(false);
    expect(bodyOf(await user.api.patch(`/v1/memory/${memory.id}` as '/v1/memory/{id}', { body: { pinned: true } }), 200).pinned).toBe(true);
    expect(bodyOf(await user.api.get(`/v1/memory/${memory.id}` as '/v1/memory/{id}'), 200).pinned).toBe(true);
  });
});

describe('search sort=recent', () => {
  it('answers the matching memories, most recently changed first, instead of best first', async () => {
    const user = await tenant.addMember('member');
    const strong = await saved(user, { content: 'Capybara capybara capybara care guide' });
    const weak = await saved(user, { content: 'A note that mentions a capybara once among many other words here' });
    expect(bodyOf(await user.api.get('/v1/memory/search?q=capybara'), 200).results.map((memory) => memory.id)).toEqual([strong.id, weak.id]);
    expect(bodyOf(await user.api.get('/v1/memory/search?q=capybara&sort=recent'), 200).results.map((memory) => memory.id)).toEqual([weak.id, strong.id]);
  });
});

describe('use', () => {
  it('reads over MCP count as uses; reads over REST do not', async () => {
    const user = await tenant.addMember('member');
    const memory = await saved(user, { content: 'The wombat runbook lives in the ops wiki' });
    await user.api.get(`/v1/memory/${memory.id}` as '/v1/memory/{id}');
    const call = (name: string, args: Record<string, unknown>) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
    expect((await call('getMemoryById', { id: memory.id })).status).toBe(200);
    expect((await call('getMemorySearch', { q: 'wombat runbook' })).status).toBe(200);
    await server.services.memoryUse.flush();
    const read = bodyOf(await user.api.get(`/v1/memory/${memory.id}` as '/v1/memory/{id}'), 200);
    expect(read.use_count).toBe(2);
    expect(read.last_used_at).not.toBeNull();
  });
});
