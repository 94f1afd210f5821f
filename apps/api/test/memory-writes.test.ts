import mysql from 'mysql2/promise';
import { purgeExpiredIdempotencyKeysEverywhere } from '@memory-bank/db/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';
import { bodyOf, expectStatus, type RequestBody } from './support/http';

let server: TestServer;
let tenant: TestTenant;
let counter = 0;
const freshKey = () => `retry-${Date.now().toString(36)}-${counter++}`;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.services, server.url);
});
afterAll(() => server.close());

const save = (user: TestUser, body: RequestBody<'post', '/v1/memory'>, key?: string) =>
  user.api.post('/v1/memory', { body, ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) });

async function countMemories(user: TestUser, content: string): Promise<number> {
  const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM memory WHERE user_id = ? AND content = ?', [
    user.userId,
    content,
  ]);
  return Number(rows[0]!.n);
}

describe('POST /v1/memory with Idempotency-Key', () => {
  it('a retry with the same key and body answers the first result again, flagged, and saves once', async () => {
    const key = freshKey();
    const body = { content: 'retried note', tags: ['a'], contexts: [{ snippet: 'from the chat' }] };
    const first = await save(tenant.owner, body, key);
    expectStatus(first, 201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await save(tenant.owner, { contexts: [{ snippet: 'from the chat' }], tags: ['a'], content: 'retried note' }, key);
    expectStatus(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await countMemories(tenant.owner, 'retried note')).toBe(1);
  });

  it('a replayed save answers the redaction count of the first', async () => {
    const key = freshKey();
    const secret = `sk-ant-api03-${'Qx7'.repeat(31)}0001AA`;
    const body = { content: `deploy key ${secret}`, contexts: [{ snippet: `pasted ${secret}` }] };
    const first = await save(tenant.owner, body, key);
    expectStatus(first, 201);
    expect(first.body.redacted).toBe(2);
    const again = await save(tenant.owner, body, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('without a key, or with two keys, an equal second post is a duplicate of the first (200), not a second memory', async () => {
    const body = { content: 'twice without key' };
    expect((await save(tenant.owner, body)).status).toBe(201);
    const again = await save(tenant.owner, body);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await countMemories(tenant.owner, 'twice without key')).toBe(1);
    expect((await save(tenant.owner, { content: 'two keys' }, freshKey())).status).toBe(201);
    expect((await save(tenant.owner, { content: 'two keys' }, freshKey())).status).toBe(200);
    expect(await countMemories(tenant.owner, 'two keys')).toBe(1);
  });

  it('concurrent requests with the same key save one memory; every answer names it', async () => {
    const key = freshKey();
    const answers = await Promise.all(Array.from({ length: 8 }, () => save(tenant.owner, { content: 'raced note', contexts: [{ snippet: 's' }] }, key)));
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((res) => bodyOf(res, 201).id)).size).toBe(1);
    expect(answers.filter((res) => res.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await countMemories(tenant.owner, 'raced note')).toBe(1);
  });

  it('the same key with another body is a 422 problem, and saves nothing', async () => {
    const key = freshKey();
    expect((await save(tenant.owner, { content: 'first body' }, key)).status).toBe(201);
    const other = await save(tenant.owner, { content: 'second body' }, key);
    expectStatus(other, 422);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(other.body).toMatchObject({ type: 'urn:memory-bank:problem:idempotency_key_reused', status: 422 });
    expect(await countMemories(tenant.owner, 'second body')).toBe(0);
  });

  it('keys are per caller: another user or tenant with the same key saves its own memory, learning nothing', async () => {
    const key = freshKey();
    const mine = await save(tenant.owner, { content: 'owner secret plan' }, key);
    expectStatus(mine, 201);
    const colleague = await tenant.addMember('member');
    const stranger = (await createTenant(server.services, server.url, 'other tenant')).owner;
    // Same body: a new memory, not a replay of the owner's.
    const same = await save(colleague, { content: 'owner secret plan' }, key);
    expectStatus(same, 201);
    expect(same.headers.get('idempotent-replayed')).toBeNull();
    expect(same.body.id).not.toBe(mine.body.id);
    // Another body: 201, not the 422 that would tell the key is in use elsewhere.
    const different = await save(stranger, { content: 'something else' }, key);
    expectStatus(different, 201);
    expect(different.headers.get('idempotent-replayed')).toBeNull();
    // And each caller's own retry still replays its own memory.
    expect(bodyOf(await save(stranger, { content: 'something else' }, key), 201).id).toBe(different.body.id);
    expect(bodyOf(await save(tenant.owner, { content: 'owner secret plan' }, key), 201).id).toBe(mine.body.id);
  });

  it('a failed write is not remembered: a retry after fixing nothing else runs again', async () => {
    const key = freshKey();
    const member = await tenant.addMember('member');
    // A member may not share with the org: 403, and the key stays free.
    expect((await save(member, { content: 'shared?', scope: 'org' }, key)).status).toBe(403);
    const retried = await save(member, { content: 'shared?' }, key);
    expectStatus(retried, 201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('rejects a malformed key (400) and stores hashes only', async () => {
    const bad = await save(tenant.owner, { content: 'x' }, 'has space');
    expectStatus(bad, 400);
    const key = freshKey();
    await save(tenant.owner, { content: 'hash only body' }, key);
    const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>('SELECT * FROM idempotency_keys WHERE org_id = ?', [tenant.orgId]);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(key);
    expect(dump).not.toContain('hash only body');
  });

  it('keys expire after 24 h: a retry then saves anew; expired keys are deleted in the background, not by requests', async () => {
    const expiredCount = async () => {
      const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM idempotency_keys WHERE org_id = ? AND created_at < NOW(3) - INTERVAL 24 HOUR',
        [tenant.orgId],
      );
      return Number(rows[0]!.n);
    };
    const key = freshKey();
    const first = await save(tenant.owner, { content: 'expiring note' }, key);
    expectStatus(first, 201);
    expect((await save(tenant.owner, { content: 'another expiring note' }, freshKey())).status).toBe(201);
    await server.database.pool.query('UPDATE idempotency_keys SET created_at = created_at - INTERVAL 25 HOUR WHERE org_id = ?', [tenant.orgId]);
    const fresh = freshKey();
    expect((await save(tenant.owner, { content: 'a fresh keyed note' }, fresh)).status).toBe(201);
    // The key is forgotten: the save runs again, and finds the memory it saved the first time.
    const later = await save(tenant.owner, { content: 'expiring note' }, key);
    expectStatus(later, 200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body).toMatchObject({ id: first.body.id, duplicate: true });
    // The keyed saves sent no purge of their own: the other expired key is still there.
    expect(await expiredCount()).toBeGreaterThan(0);
    expect(await server.maintenance.runOnce()).toBeGreaterThan(0);
    expect(await expiredCount()).toBe(0);
    // Live keys stay: both replay.
    expect((await save(tenant.owner, { content: 'expiring note' }, key)).headers.get('idempotent-replayed')).toBe('true');
    expect((await save(tenant.owner, { content: 'a fresh keyed note' }, fresh)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('the background purge deletes in bounded batches', async () => {
    const org = await createTenant(server.services, server.url);
    for (let i = 0; i < 5; i++) expect((await save(org.owner, { content: `batched ${i}` }, freshKey())).status).toBe(201);
    await server.database.pool.query('UPDATE idempotency_keys SET created_at = created_at - INTERVAL 25 HOUR WHERE org_id = ?', [org.orgId]);
    const before = new Date(Date.now() - 24 * 60 * 60 * 1000);
    const purged = await purgeExpiredIdempotencyKeysEverywhere(server.database.db, before, { orgs: 1000, batch: 2 });
    expect(purged.full).toBe(true);
    const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM idempotency_keys WHERE org_id = ?', [org.orgId]);
    expect(Number(rows[0]!.n)).toBe(3);
  });

  it('a replay of a memory deleted since answers 404', async () => {
    const key = freshKey();
    const first = await save(tenant.owner, { content: 'soon gone' }, key);
    expectStatus(first, 201);
    expect((await tenant.owner.api.delete(`/v1/memory/${first.body.id}`)).status).toBe(204);
    expect((await save(tenant.owner, { content: 'soon gone' }, key)).status).toBe(404);
  });
});

describe('ETag and If-Match on memories', () => {
  it('GET, POST and PATCH answer a strong ETag that changes with the memory', async () => {
    const created = await save(tenant.owner, { content: 'versioned' });
    expectStatus(created, 201);
    const etag = created.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const read = await tenant.owner.api.get(`/v1/memory/${created.body.id}`);
    expect(read.headers.get('etag')).toBe(etag);
    const changed = await tenant.owner.api.patch(`/v1/memory/${created.body.id}`, { body: { tags: ['v2'] }, headers: { 'if-match': etag! } });
    expectStatus(changed, 200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await tenant.owner.api.get(`/v1/memory/${created.body.id}`)).headers.get('etag')).toBe(changed.headers.get('etag'));
  });

  it('a stale If-Match on PATCH or DELETE is a 412 and changes nothing', async () => {
    const created = await save(tenant.owner, { content: 'contested' });
    expectStatus(created, 201);
    const stale = created.headers.get('etag')!;
    const first = await tenant.owner.api.patch(`/v1/memory/${created.body.id}`, { body: { content: 'writer one' }, headers: { 'if-match': stale } });
    expectStatus(first, 200);
    const second = await tenant.owner.api.patch(`/v1/memory/${created.body.id}`, { body: { content: 'writer two' }, headers: { 'if-match': stale } });
    expectStatus(second, 412);
    expect(second.body).toMatchObject({ type: 'urn:memory-bank:problem:precondition_failed', status: 412 });
    const del = await tenant.owner.api.delete(`/v1/memory/${created.body.id}`, { headers: { 'if-match': stale } });
    expectStatus(del, 412);
    expect(bodyOf(await tenant.owner.api.get(`/v1/memory/${created.body.id}`), 200).content).toBe('writer one');
    // Weak comparison is not allowed for If-Match: the weak form of the current tag does not match.
    const current = first.headers.get('etag')!;
    expect((await tenant.owner.api.delete(`/v1/memory/${created.body.id}`, { headers: { 'if-match': `W/${current}` } })).status).toBe(412);
    expect((await tenant.owner.api.delete(`/v1/memory/${created.body.id}`, { headers: { 'if-match': `"nope", ${current}` } })).status).toBe(204);
  });

  it('If-Match: * matches any existing memory; a missing one is still the same 404', async () => {
    const created = await save(tenant.owner, { content: 'wildcard' });
    expectStatus(created, 201);
    expect((await tenant.owner.api.patch(`/v1/memory/${created.body.id}`, { body: { content: 'w2' }, headers: { 'if-match': '*' } })).status).toBe(200);
    expect((await tenant.owner.api.delete(`/v1/memory/${created.body.id}`, { headers: { 'if-match': '*' } })).status).toBe(204);
    expect((await tenant.owner.api.delete(`/v1/memory/${created.body.id}`, { headers: { 'if-match': '*' } })).status).toBe(404);
  });

  it("an admin deleting a member's private memory unseen can only match it with *", async () => {
    const member = await tenant.addMember('member');
    const note = await save(member, { content: 'member private' });
    expectStatus(note, 201);
    const etag = note.headers.get('etag')!;
    expect((await tenant.owner.api.delete(`/v1/memory/${note.body.id}`, { headers: { 'if-match': etag } })).status).toBe(412);
    expect((await tenant.owner.api.delete(`/v1/memory/${note.body.id}`, { headers: { 'if-match': '*' } })).status).toBe(204);
  });
});
