import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchOf, fixture, newSessionId } from './support/hooks';
import { bodyOf, client, expectStatus, type Answer, type Client, type RequestBody } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';

const OPERATOR = 'operator-token-for-teams-0123456789';
let server: TestServer;
let org: TestTenant;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let otherAdmin: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { MEMORY_BANK_OPERATOR_TOKEN: OPERATOR }, ownDatabase: true });
  org = await createTenant(server.services, server.url, 'teams org');
  owner = org.owner;
  admin = await org.addMember('admin');
  member = await org.addMember('member');
  otherAdmin = await (await createTenant(server.services, server.url, 'other org')).addMember('admin');
});
afterAll(() => server.close());

const save = async (who: TestUser, body: RequestBody<'post', '/v1/memory'>) => bodyOf(await who.api.post('/v1/memory', { body }), 201);
/** The ids a list or a search answered (a 200). */
const ids = (res: Answer<'get', '/v1/memory'> | Answer<'get', '/v1/memory/search'>) => {
  expectStatus(res, 200);
  return ('memories' in res.body ? res.body.memories : res.body.results).map((m) => m.id);
};
const archiveFiles = async (prefix: string) =>
  (await readdir(new URL(server.config.ARCHIVE_URL).pathname, { recursive: true }).catch(() => [] as string[])).filter((file) =>
    String(file).startsWith(prefix),
  );
const count = async (sql: string, params: unknown[]) => {
  const [rows] = await server.database.pool.query(sql, params);
  return Number((rows as { n: number }[])[0]!.n);
};

describe('org-shared memories', () => {
  it('admins share, every member reads, lists and searches them next to their own, by scope', async () => {
    // A member of its own: what the lists and searches hold is exactly what this test saved.
    const member = await org.addMember('member');
    const shared = await save(admin, { content: 'Org policy: the capybara deploy freeze starts Friday', scope: 'org' });
    expect(shared.scope).toBe('org');
    const mine = await save(member, { content: 'My capybara note' });
    expect(mine.scope).toBe('user');

    expect((await member.api.get(`/v1/memory/${shared.id}`)).status).toBe(200);
    expect(ids(await member.api.get('/v1/memory?limit=100'))).toEqual(expect.arrayContaining([shared.id, mine.id]));
    expect(ids(await member.api.get('/v1/memory?scope=org&limit=100'))).toContain(shared.id);
    expect(ids(await member.api.get('/v1/memory?scope=org&limit=100'))).not.toContain(mine.id);
    expect(ids(await member.api.get('/v1/memory?scope=user&limit=100'))).toEqual([mine.id]);
    const search = await member.api.get('/v1/memory/search?q=capybara');
    expectStatus(search, 200);
    expect(search.body.results.map((r) => [r.id, r.scope]).sort()).toEqual(
      [
        [shared.id, 'org'],
        [mine.id, 'user'],
      ].sort(),
    );
    expect(ids(await member.api.get('/v1/memory/search?q=capybara&scope=org'))).toEqual([shared.id]);
    expect(ids(await member.api.get('/v1/memory/search?q=capybara&scope=user'))).toEqual([mine.id]);
    expect((await member.api.get('/v1/memory?scope=everyone')).status).toBe(400);

    // Other orgs never see it; admins never see members' private memories.
    expect((await otherAdmin.api.get(`/v1/memory/${shared.id}`)).status).toBe(404);
    expect(ids(await otherAdmin.api.get('/v1/memory/search?q=capybara'))).toEqual([]);
    expect((await admin.api.get(`/v1/memory/${mine.id}`)).status).toBe(404);
    expect(ids(await admin.api.get('/v1/memory/search?q=capybara'))).toEqual([shared.id]);
  });

  it('only admins and owners save, change or delete them', async () => {
    expect((await member.api.post('/v1/memory', { body: { content: 'sneaky', scope: 'org' } })).status).toBe(403);
    const shared = await save(owner, { content: 'Shared runbook', scope: 'org' });
    expect((await member.api.patch(`/v1/memory/${shared.id}`, { body: { content: 'vandalised' } })).status).toBe(403);
    expect((await member.api.delete(`/v1/memory/${shared.id}`)).status).toBe(403);
    expect(bodyOf(await admin.api.patch(`/v1/memory/${shared.id}`, { body: { tags: ['runbook'] } }), 200).tags).toEqual(['runbook']);
    expect((await admin.api.delete(`/v1/memory/${shared.id}`)).status).toBe(204);
    expect((await member.api.get(`/v1/memory/${shared.id}`)).status).toBe(404);
  });
});

describe('admins and members’ data', () => {
  it('an admin deletes a member’s private memory without reading it, and it is audited', async () => {
    const secret = await save(member, { content: 'Private: my salary negotiation notes (aardwolf)', contexts: [{ snippet: 'aardwolf snippet' }] });
    expect((await admin.api.get(`/v1/memory/${secret.id}`)).status).toBe(404);
    expect((await admin.api.patch(`/v1/memory/${secret.id}`, { body: { content: 'x' } })).status).toBe(404);
    const metadata = await admin.api.get(`/v1/admin/members/${member.userId}/memories?limit=100`);
    expectStatus(metadata, 200);
    const entry = metadata.body.memories.find((m) => m.id === secret.id);
    expect(entry).toEqual({ id: secret.id, scope: 'user', tags: [], size: Buffer.byteLength('Private: my salary negotiation notes (aardwolf)'), context_count: 1, created_at: expect.any(String), updated_at: expect.any(String) });
    expect(metadata.text).not.toContain('aardwolf');

    expect((await admin.api.delete(`/v1/memory/${secret.id}`)).status).toBe(204);
    expect(ids(await member.api.get('/v1/memory/search?q=aardwolf'))).toEqual([]);
    const audit = await owner.api.get(`/v1/admin/audit?action=memory.delete&actor=${admin.userId}`);
    expectStatus(audit, 200);
    expect(audit.body.events[0]).toMatchObject({
      action: 'memory.delete',
      actor: { type: 'user', user_id: admin.userId, key_id: admin.keyId },
      target: { type: 'memory', id: secret.id },
      counts: { memories: 1 },
      request_id: expect.any(String),
    });
    expect(audit.text).not.toContain('aardwolf');
  });

  it('purges everything of a member: rows, FULLTEXT hits and archived objects', async () => {
    const target = await org.addMember('member');
    for (let i = 0; i < 3; i++) await save(target, { content: `okapi purge note ${i}`, contexts: [{ snippet: `okapi ctx ${i}` }, { snippet: 'more' }] });
    const keep = await save(owner, { content: 'okapi org memory that stays', scope: 'org' });
    let workstreamId = '';
    for (const name of ['user-prompt-submit', 'session-end']) {
      workstreamId = bodyOf(await target.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', name, { session_id: newSessionId(), prompt: 'okapi prompt' }) }), 202).workstream_id;
    }
    await server.archiver.runOnce(true);
    expect((await archiveFiles(`orgs/${org.orgId}/workstreams/`)).some((file) => file.includes(workstreamId))).toBe(true);

    const res = await admin.api.delete(`/v1/admin/members/${target.userId}/memories?include=workstreams`);
    expectStatus(res, 200);
    expect(res.body).toEqual({ deleted: { memories: 3, contexts: 6, workstreams: 2, segments: 2 } });

    expect(await count('SELECT COUNT(*) AS n FROM memory WHERE user_id = ?', [target.userId])).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM memory_context WHERE snippet LIKE 'okapi ctx%' AND org_id = ?", [org.orgId])).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM memory WHERE org_id = ? AND MATCH(content) AGAINST('okapi' IN NATURAL LANGUAGE MODE)", [org.orgId])).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM workstream_events WHERE user_id = ?", [target.userId])).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM workstream_events WHERE content LIKE '%okapi%' AND org_id = ?", [org.orgId])).toBe(0);
    expect(await count('SELECT COUNT(*) AS n FROM workstreams WHERE user_id = ?', [target.userId])).toBe(0);
    expect((await archiveFiles(`orgs/${org.orgId}/workstreams/`)).filter((file) => file.includes(workstreamId))).toEqual([]);
    expect(ids(await target.api.get('/v1/memory/search?q=okapi'))).toEqual([keep.id]);

    const audit = await admin.api.get(`/v1/admin/audit?action=member.purge`);
    expectStatus(audit, 200);
    expect(audit.body.events[0]).toMatchObject({ target: { type: 'user', id: target.userId }, counts: { memories: 3, contexts: 6, workstreams: 2, segments: 2 } });
    expect(audit.text).not.toContain('okapi');
  });

  it('removes a member: keys stop working, data purged unless keep_data', async () => {
    const leaving = await org.addMember('member');
    await save(leaving, { content: 'quokka leaving note' });
    const spare = await leaving.api.post('/v1/api-keys', { body: { name: 'spare' } });
    expectStatus(spare, 201);
    const res = await admin.api.delete(`/v1/org/members/${leaving.userId}`);
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ user: { id: leaving.userId, removed_at: expect.any(String) }, keys_revoked: 2, deleted: { memories: 1 } });
    expect((await leaving.api.get('/v1/memory')).status).toBe(401);
    expect((await client(server.url, spare.body.key).get('/v1/memory')).status).toBe(401);
    expect(await count('SELECT COUNT(*) AS n FROM memory WHERE user_id = ?', [leaving.userId])).toBe(0);
    expect((await admin.api.delete(`/v1/org/members/${leaving.userId}`)).status).toBe(404);
    const members = await owner.api.get('/v1/org/members');
    expectStatus(members, 200);
    expect(members.body.members.find((m) => m.id === leaving.userId)?.removed_at).toEqual(expect.any(String));

    const keeping = await org.addMember('member');
    await save(keeping, { content: 'kept note' });
    const kept = await admin.api.delete(`/v1/org/members/${keeping.userId}?keep_data=true`);
    expectStatus(kept, 200);
    expect(kept.body).toMatchObject({ keys_revoked: 1, deleted: { memories: 0, contexts: 0, workstreams: 0, segments: 0 } });
    expect(await count('SELECT COUNT(*) AS n FROM memory WHERE user_id = ?', [keeping.userId])).toBe(1);
    // Purge later, still possible for a removed member.
    expect(bodyOf(await admin.api.delete(`/v1/admin/members/${keeping.userId}/memories`), 200).deleted.memories).toBe(1);
  });

  it('enforces who may remove whom', async () => {
    const anotherAdmin = await org.addMember('admin');
    expect((await admin.api.delete(`/v1/org/members/${anotherAdmin.userId}`)).status).toBe(403);
    expect((await admin.api.delete(`/v1/org/members/${owner.userId}`)).status).toBe(403);
    expect((await admin.api.delete(`/v1/org/members/${admin.userId}`)).status).toBe(409);
    expect((await owner.api.delete(`/v1/org/members/${owner.userId}`)).status).toBe(409);
    expect((await owner.api.delete(`/v1/org/members/${anotherAdmin.userId}`)).status).toBe(200);
    expect((await otherAdmin.api.delete(`/v1/org/members/${member.userId}`)).status).toBe(404);
    expect((await member.api.delete(`/v1/org/members/${admin.userId}`)).status).toBe(403);
  });
});

describe('changing roles', () => {
  it('promotes and demotes from the next request on, audited; enforces who may change whom', async () => {
    const promoted = await org.addMember('member');
    expect((await promoted.api.get('/v1/org')).status).toBe(403);
    const res = await admin.api.patch(`/v1/org/members/${promoted.userId}`, { body: { role: 'admin' } });
    expectStatus(res, 200);
    expect(res.body.user).toMatchObject({ id: promoted.userId, role: 'admin' });
    const adminKey = await org.keyWithScopes(promoted, ['memory:read', 'admin']);
    expect((await adminKey.api.get('/v1/org')).status).toBe(200);
    expect((await admin.api.patch(`/v1/org/members/${promoted.userId}`, { body: { role: 'member' } })).status).toBe(200);
    // Demoted: the next request is a member's, and no key of theirs carries the admin scope any more.
    expect((await adminKey.api.get('/v1/org')).status).toBe(403);
    expect(bodyOf(await promoted.api.get('/v1/api-keys'), 200).api_keys.every((key) => !key.scopes.includes('admin'))).toBe(true);
    const audit = await owner.api.get(`/v1/admin/audit?action=member.role`);
    expectStatus(audit, 200);
    expect(audit.body.events.filter((event) => event.target.id === promoted.userId)).toHaveLength(2);

    expect((await admin.api.patch(`/v1/org/members/${promoted.userId}`, { body: { role: 'owner' } })).status).toBe(403);
    expect((await admin.api.patch(`/v1/org/members/${owner.userId}`, { body: { role: 'member' } })).status).toBe(403);
    expect((await admin.api.patch(`/v1/org/members/${admin.userId}`, { body: { role: 'member' } })).status).toBe(409);
    expect((await owner.api.patch(`/v1/org/members/${owner.userId}`, { body: { role: 'admin' } })).status).toBe(409);
    expect((await admin.api.unchecked.patch(`/v1/org/members/${promoted.userId}`, { body: { role: 'boss' } })).status).toBe(400);
    expect((await otherAdmin.api.patch(`/v1/org/members/${promoted.userId}`, { body: { role: 'admin' } })).status).toBe(404);
    expect((await member.api.patch(`/v1/org/members/${promoted.userId}`, { body: { role: 'admin' } })).status).toBe(403);
    // An owner makes another owner, and may then step down.
    expect((await owner.api.patch(`/v1/org/members/${promoted.userId}`, { body: { role: 'owner' } })).status).toBe(200);
    expect((await owner.api.patch(`/v1/org/members/${promoted.userId}`, { body: { role: 'member' } })).status).toBe(200);
  });
});

describe('audit trail', () => {
  it('records key creation and revocation, member changes and purges, with request ids and no content', async () => {
    const created = await member.api.post('/v1/api-keys', { body: { name: 'audited' }, headers: { 'x-request-id': 'req-audit-create' } });
    expectStatus(created, 201);
    await member.api.delete(`/v1/api-keys/${created.body.id}`, { headers: { 'x-request-id': 'req-audit-revoke' } });
    const added = await owner.api.post('/v1/org/members', { body: { email: `audited-${Date.now()}@example.test`, role: 'member' } });
    expectStatus(added, 201);
    const events = bodyOf(await owner.api.get('/v1/admin/audit?limit=100'), 200).events;
    expect(events.find((e) => e.action === 'api_key.create' && e.target.id === created.body.id)?.request_id).toBe('req-audit-create');
    expect(events.find((e) => e.action === 'api_key.revoke' && e.target.id === created.body.id)?.request_id).toBe('req-audit-revoke');
    expect(events.find((e) => e.action === 'member.add' && e.target.id === added.body.user.id)).toBeTruthy();
    expect(events.find((e) => e.action === 'org.create')).toMatchObject({ actor: { type: 'operator', user_id: null } });

    const page1 = bodyOf(await owner.api.get('/v1/admin/audit?limit=2'), 200);
    const page2 = bodyOf(await owner.api.get(`/v1/admin/audit?limit=2&cursor=${page1.next_cursor}`), 200);
    expect(page2.events[0]!.id < page1.events[1]!.id).toBe(true);
    expect(bodyOf(await owner.api.get(`/v1/admin/audit?actor=${member.userId}`), 200).events.every((e) => e.actor.user_id === member.userId)).toBe(true);
    expect((await member.api.get('/v1/admin/audit')).status).toBe(403);
    const otherTrail = await otherAdmin.api.get('/v1/admin/audit?limit=100');
    expectStatus(otherTrail, 200);
    expect(otherTrail.body.events.some((e) => e.target.id === created.body.id)).toBe(false);
  });
});

describe('org deletion (operator)', () => {
  it('removes everything of the org, object storage included, and nothing of others', async () => {
    const doomed = await createTenant(server.services, server.url, 'doomed');
    const doomedMember = await doomed.addMember('member');
    await save(doomed.owner, { content: 'doomed shared', scope: 'org' });
    await save(doomedMember, { content: 'doomed private', contexts: [{ snippet: 's' }] });
    await doomedMember.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', 'session-end', { session_id: newSessionId() }) });
    await server.archiver.runOnce(true);
    expect((await archiveFiles(`orgs/${doomed.orgId}/`)).length).toBeGreaterThan(0);
    const survivor = await save(member, { content: 'survivor note' });

    const operator = client(server.url, OPERATOR);
    const res = await operator.delete(`/v1/admin/orgs/${doomed.orgId}`);
    expectStatus(res, 200);
    expect(res.body.deleted).toEqual({ memories: 2, contexts: 1, workstreams: 1, segments: 1, users: 2, api_keys: 2 });
    for (const table of ['users', 'api_keys', 'memory', 'memory_context', 'workstreams', 'workstream_events', 'archive_segments']) {
      expect(await count(`SELECT COUNT(*) AS n FROM ${table} WHERE org_id = ?`, [doomed.orgId]), table).toBe(0);
    }
    expect(await archiveFiles(`orgs/${doomed.orgId}/`)).toEqual([]);
    expect((await doomed.owner.api.get('/v1/memory')).status).toBe(401);
    expect((await member.api.get(`/v1/memory/${survivor.id}`)).status).toBe(200);
    expect((await operator.delete(`/v1/admin/orgs/${doomed.orgId}`)).status).toBe(404);
    expect((await owner.api.delete(`/v1/admin/orgs/${org.orgId}`)).status).toBe(401);
  });
});

describe('quota', () => {
  it('refuses a new memory once the org stores MEMORY_QUOTA_PER_ORG of them', async () => {
    const capped = await startTestServer({ env: { MEMORY_QUOTA_PER_ORG: '3' } });
    try {
      const tenant = await createTenant(capped.services, capped.url);
      for (let i = 0; i < 3; i++) expect((await tenant.owner.api.post('/v1/memory', { body: { content: `n${i}` } })).status).toBe(201);
      const over = await tenant.owner.api.post('/v1/memory', { body: { content: 'one too many' } });
      expectStatus(over, 409);
      expect(over.body).toMatchObject({ type: 'urn:memory-bank:problem:quota_exceeded', status: 409 });
      const first = bodyOf(await tenant.owner.api.get('/v1/memory?limit=1'), 200).memories[0]!.id;
      expect((await tenant.owner.api.delete(`/v1/memory/${first}`)).status).toBe(204);
      expect((await tenant.owner.api.post('/v1/memory', { body: { content: 'fits again' } })).status).toBe(201);
    } finally {
      await capped.close();
    }
  });

  it('holds under concurrent saves: exactly the quota is stored, the rest get 409', async () => {
    const capped = await startTestServer({ env: { MEMORY_QUOTA_PER_ORG: '2' } });
    try {
      const tenant = await createTenant(capped.services, capped.url);
      const saves = await Promise.all(
        Array.from({ length: 12 }, (_, i) => tenant.owner.api.post('/v1/memory', { body: { content: `racing ${i}` } })),
      );
      expect(saves.map((r) => r.status).sort()).toEqual([201, 201, ...Array(10).fill(409)]);
      expect(bodyOf(await tenant.owner.api.get('/v1/memory'), 200).memories).toHaveLength(2);
    } finally {
      await capped.close();
    }
  });
});

describe('admin powers need the admin scope', () => {
  it("lets an admin's key without the admin scope do only what a member's key does", async () => {
    const created = await admin.api.post('/v1/api-keys', { body: { name: 'no admin scope', scopes: ['memory:read', 'memory:write'] } });
    expectStatus(created, 201);
    const narrow = client(server.url, created.body.key);
    const shared = await save(owner, { content: 'shared, for the scope test', scope: 'org' });
    const privateOne = await save(member, { content: 'private, for the scope test' });

    expect((await narrow.post('/v1/memory', { body: { content: 'would be shared', scope: 'org' } })).status).toBe(403);
    expect((await narrow.patch(`/v1/memory/${shared.id}`, { body: { content: 'changed' } })).status).toBe(403);
    expect((await narrow.delete(`/v1/memory/${shared.id}`)).status).toBe(403);
    // A member's private memory is invisible to a member, so to this key too.
    expect((await narrow.delete(`/v1/memory/${privateOne.id}`)).status).toBe(404);
    expect((await member.api.get(`/v1/memory/${privateOne.id}`)).status).toBe(200);
    // Its own memories it manages as anyone does; the admin's full key keeps its powers.
    const own = await save({ ...admin, api: narrow }, { content: 'mine' });
    expect((await narrow.delete(`/v1/memory/${own.id}`)).status).toBe(204);
    expect((await admin.api.delete(`/v1/memory/${privateOne.id}`)).status).toBe(204);
    expect((await admin.api.patch(`/v1/memory/${shared.id}`, { body: { content: 'changed by an admin' } })).status).toBe(200);
  });
});

// ——— the role matrix: every route, every kind of caller ———

type Actor = 'owner' | 'admin' | 'member' | 'otherAdmin' | 'operator' | 'none';
const ACTORS: Actor[] = ['owner', 'admin', 'member', 'otherAdmin', 'operator', 'none'];

interface MatrixRow {
  route: string;
  /** Sends the request as `as`, after creating whatever it needs (fresh each time). */
  call: (as: Client) => Promise<{ status: number }>;
  expect: Record<Actor, number>;
}

const api = (actor: Actor): Client =>
  ({
    owner: () => owner.api,
    admin: () => admin.api,
    member: () => member.api,
    otherAdmin: () => otherAdmin.api,
    operator: () => client(server.url, OPERATOR),
    none: () => client(server.url, null),
  })[actor]();

const users = (status: number, other: number, rest: Partial<Record<Actor, number>> = {}): Record<Actor, number> => ({
  owner: status,
  admin: status,
  member: status,
  otherAdmin: other,
  operator: 401,
  none: 401,
  ...rest,
});

const memberHook = () => ({ session_id: newSessionId(), hook_event_name: 'UserPromptSubmit', prompt: 'matrix' });
const freshMemberMemory = async () => (await save(member, { content: `matrix private ${Math.random()}` })).id;
const freshSharedMemory = async () => (await save(owner, { content: `matrix shared ${Math.random()}`, scope: 'org' })).id;
const freshWorkstream = async () => bodyOf(await member.api.post('/v1/hooks/claude-code', { body: memberHook() }), 202).workstream_id;

const MATRIX: MatrixRow[] = [
  // Each save new text: an equal one would be a duplicate (200).
  { route: 'POST /v1/memory', call: (c) => c.post('/v1/memory', { body: { content: `m ${Math.random()}` } }), expect: users(201, 201) },
  { route: 'POST /v1/memory scope=org', call: (c) => c.post('/v1/memory', { body: { content: `m ${Math.random()}`, scope: 'org' } }), expect: users(201, 201, { member: 403 }) },
  { route: 'GET /v1/memory', call: (c) => c.get('/v1/memory'), expect: users(200, 200) },
  { route: 'GET /v1/memory/search', call: (c) => c.get('/v1/memory/search?q=matrix'), expect: users(200, 200) },
  { route: 'GET /v1/memory/export', call: (c) => c.get('/v1/memory/export'), expect: users(200, 200) },
  {
    route: 'POST /v1/memory/import',
    call: (c) => c.post('/v1/memory/import', { rawBody: '{"content":"m"}\n', headers: { 'content-type': 'application/x-ndjson' } }),
    expect: users(200, 200),
  },
  {
    route: 'POST /v1/memory/import scope=org',
    call: async (c) => {
      const res = await c.post('/v1/memory/import?scope=org', { rawBody: `{"content":"m ${Math.random()}"}\n`, headers: { 'content-type': 'application/x-ndjson' } });
      // A member's org-shared line is refused in the summary, not by the status.
      return res.status === 200 && res.body.failures.length > 0 ? { ...res, status: res.body.failures[0]?.code === 'forbidden' ? 403 : 500 } : res;
    },
    expect: users(200, 200, { member: 403 }),
  },
  { route: 'GET /v1/memory/{id} (shared)', call: async (c) => c.get(`/v1/memory/${await freshSharedMemory()}`), expect: users(200, 404) },
  { route: "GET /v1/memory/{id} (member's)", call: async (c) => c.get(`/v1/memory/${await freshMemberMemory()}`), expect: users(404, 404, { member: 200 }) },
  { route: "GET /v1/memory/{id}/history (member's)", call: async (c) => c.get(`/v1/memory/${await freshMemberMemory()}/history`), expect: users(404, 404, { member: 200 }) },
  { route: 'PATCH /v1/memory/{id} (shared)', call: async (c) => c.patch(`/v1/memory/${await freshSharedMemory()}`, { body: { tags: ['x'] } }), expect: users(200, 404, { member: 403 }) },
  { route: "PATCH /v1/memory/{id} (member's)", call: async (c) => c.patch(`/v1/memory/${await freshMemberMemory()}`, { body: { tags: ['x'] } }), expect: users(404, 404, { member: 200 }) },
  { route: 'DELETE /v1/memory/{id} (shared)', call: async (c) => c.delete(`/v1/memory/${await freshSharedMemory()}`), expect: users(204, 404, { member: 403 }) },
  { route: "DELETE /v1/memory/{id} (member's)", call: async (c) => c.delete(`/v1/memory/${await freshMemberMemory()}`), expect: users(204, 404) },
  { route: 'POST /v1/api-keys', call: (c) => c.post('/v1/api-keys', { body: { name: 'matrix' } }), expect: users(201, 201) },
  { route: 'GET /v1/api-keys', call: (c) => c.get('/v1/api-keys'), expect: users(200, 200) },
  {
    route: "DELETE /v1/api-keys/{id} (member's)",
    call: async (c) => c.delete(`/v1/api-keys/${bodyOf(await member.api.post('/v1/api-keys', { body: { name: 'x' } }), 201).id}`),
    expect: users(404, 404, { member: 204 }),
  },
  { route: 'POST /v1/org/members', call: (c) => c.post('/v1/org/members', { body: { email: `matrix-${Math.random()}@example.test`, role: 'member' } }), expect: users(201, 201, { member: 403 }) },
  { route: 'GET /v1/org/members', call: (c) => c.get('/v1/org/members'), expect: users(200, 200, { member: 403 }) },
  { route: 'GET /v1/org', call: (c) => c.get('/v1/org'), expect: users(200, 200, { member: 403 }) },
  // Sets the value the org already has: the other rows still run with redaction on.
  { route: 'PATCH /v1/org', call: (c) => c.patch('/v1/org', { body: { redact_memory_secrets: true } }), expect: users(200, 200, { member: 403 }) },
  {
    route: 'PATCH /v1/org/members/{user_id}',
    call: async (c) => c.patch(`/v1/org/members/${(await org.addMember('member')).userId}`, { body: { role: 'admin' } }),
    expect: users(200, 404, { member: 403 }),
  },
  {
    route: 'DELETE /v1/org/members/{user_id}',
    call: async (c) => c.delete(`/v1/org/members/${(await org.addMember('member')).userId}`),
    expect: users(200, 404, { member: 403 }),
  },
  { route: 'GET /v1/admin/members/{user_id}/memories', call: (c) => c.get(`/v1/admin/members/${member.userId}/memories`), expect: users(200, 404, { member: 403 }) },
  {
    route: 'DELETE /v1/admin/members/{user_id}/memories',
    call: async (c) => c.delete(`/v1/admin/members/${(await org.addMember('member')).userId}/memories`),
    expect: users(200, 404, { member: 403 }),
  },
  { route: 'GET /v1/admin/audit', call: (c) => c.get('/v1/admin/audit'), expect: users(200, 200, { member: 403 }) },
  // Revoking real grants, another person's included, is in mcp-oauth.test.ts (it needs the OAuth flow).
  { route: 'GET /v1/oauth/grants', call: (c) => c.get('/v1/oauth/grants'), expect: users(200, 200) },
  { route: 'GET /v1/oauth/grants (all=true)', call: (c) => c.get('/v1/oauth/grants?all=true'), expect: users(200, 200, { member: 403 }) },
  { route: "GET /v1/oauth/grants (a member's)", call: (c) => c.get(`/v1/oauth/grants?user_id=${member.userId}`), expect: users(200, 404, { member: 200 }) },
  { route: 'DELETE /v1/oauth/grants/{id} (unknown)', call: (c) => c.delete('/v1/oauth/grants/no-such-grant'), expect: users(404, 404) },
  {
    route: 'POST /v1/admin/orgs',
    call: (c) => c.post('/v1/admin/orgs', { body: { name: 'matrix org', owner: { email: `o-${Math.random()}@example.test` } } }),
    expect: { owner: 401, admin: 401, member: 401, otherAdmin: 401, operator: 201, none: 401 },
  },
  {
    route: 'DELETE /v1/admin/orgs/{org_id}',
    call: async (c) => c.delete(`/v1/admin/orgs/${(await createTenant(server.services, server.url, 'matrix victim')).orgId}`),
    expect: { owner: 401, admin: 401, member: 401, otherAdmin: 401, operator: 200, none: 401 },
  },
  { route: 'POST /v1/hooks/{harness}', call: (c) => c.post('/v1/hooks/claude-code', { body: memberHook() }), expect: users(202, 202) },
  { route: 'POST /v1/hooks/batch', call: (c) => c.post('/v1/hooks/batch', { body: batchOf([{ harness: 'claude-code', payload: memberHook() }]) }), expect: users(200, 200) },
  // Unchecked: the document calls harness required, though it defaults to generic.
  { route: 'POST /v1/recall', call: (c) => c.unchecked.post('/v1/recall', { body: { session_id: newSessionId(), trigger: 'prompt', prompt: 'matrix' } }), expect: users(200, 200) },
  { route: 'POST /v1/hooks/{harness}/recall', call: (c) => c.post('/v1/hooks/claude-code/recall', { body: memberHook() }), expect: users(200, 200) },
  { route: 'GET /v1/workstreams', call: (c) => c.get('/v1/workstreams'), expect: users(200, 200) },
  { route: 'GET /v1/workstreams/search', call: (c) => c.get('/v1/workstreams/search?q=matrix'), expect: users(200, 200) },
  { route: "GET /v1/workstreams/{id} (member's)", call: async (c) => c.get(`/v1/workstreams/${await freshWorkstream()}`), expect: users(404, 404, { member: 200 }) },
  { route: "GET /v1/workstreams/{id}/events", call: async (c) => c.get(`/v1/workstreams/${await freshWorkstream()}/events`), expect: users(404, 404, { member: 200 }) },
  { route: "GET /v1/workstreams/{id}/actions", call: async (c) => c.get(`/v1/workstreams/${await freshWorkstream()}/actions`), expect: users(404, 404, { member: 200 }) },
  { route: "GET /v1/workstreams/{id}/raw", call: async (c) => c.get(`/v1/workstreams/${await freshWorkstream()}/raw`), expect: users(404, 404, { member: 200 }) },
  {
    route: 'POST /v1/workstreams/{id}/events/{sequence}/remember',
    call: async (c) => c.post(`/v1/workstreams/${await freshWorkstream()}/events/1/remember`, { body: {} }),
    expect: users(404, 404, { member: 201 }),
  },
  { route: "DELETE /v1/workstreams/{id} (member's)", call: async (c) => c.delete(`/v1/workstreams/${await freshWorkstream()}`), expect: users(404, 404, { member: 204 }) },
];

describe('role matrix', () => {
  it.each(MATRIX.map((row) => [row.route, row] as const))('%s', async (_route, row) => {
    const got: Partial<Record<Actor, number>> = {};
    for (const actor of ACTORS) got[actor] = (await row.call(api(actor))).status;
    expect(got).toEqual(row.expect);
  });

  it('covers every operation of the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    const covered = new Set(MATRIX.map((row) => row.route.replace(/ \(.*\)$| scope=org$/, '')));
    expect(operations.filter((operation) => !covered.has(operation))).toEqual([]);
  });
});
