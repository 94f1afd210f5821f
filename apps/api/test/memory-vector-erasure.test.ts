import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEnv, startEmbeddingsServer, type EmbeddingsTestServer } from './support/embeddings-server';
import { bodyOf, expectStatus } from './support/http';
import { DAY_MS, movableClock } from './support/lifecycle';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

/*
 * A deleted memory leaves no vector behind (memory_vectors), whichever way it is deleted —
 * beside memory-erasure.test.ts, which checks the other memory tables. The vectors come from
 * the `openai` provider against a local server. A database of its own: the clock moves for
 * expiry and retention.
 */
const clock = movableClock();
const OPERATOR_TOKEN = 'operator-token-for-the-vector-erasure-tests';
let embeddingsServer: EmbeddingsTestServer;
let server: TestServer;

beforeAll(async () => {
  embeddingsServer = await startEmbeddingsServer();
  server = await startTestServer({ ownDatabase: true, clock, env: openAiEnv(embeddingsServer, { MEMORY_BANK_OPERATOR_TOKEN: OPERATOR_TOKEN }) });
});
afterAll(async () => {
  await server.close();
  await embeddingsServer.close();
});

/** memory_vectors rows of these memories. */
async function vectorsOf(ids: readonly string[]): Promise<number> {
  const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM memory_vectors WHERE memory_id IN (?)', [ids]);
  return Number(rows[0]!.n);
}

let saved = 0;
/** Saves memories and waits for their vectors. */
async function remember(who: TestUser, count = 1, extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(bodyOf(await who.api.post('/v1/memory', { body: { content: `The heron deploy plan number ${saved++} waits for the freeze`, ...extra } }), 201).id);
  }
  await server.embeddings.idle();
  expect(await vectorsOf(ids)).toBe(ids.length);
  return ids;
}

describe('deleting a memory deletes its vector', () => {
  it('DELETE /v1/memory/{id}, of a private and of an org-shared memory', async () => {
    const org = await createTenant(server.services, server.url, 'Vectors deleted');
    const [own] = await remember(org.owner);
    const [shared] = await remember(org.owner, 1, { scope: 'org' });
    for (const id of [own!, shared!]) expect((await org.owner.api.delete(`/v1/memory/${id}`)).status).toBe(204);
    expect(await vectorsOf([own!, shared!])).toBe(0);
  });

  it('deleting the newest version of a chain deletes every version and their vectors', async () => {
    const org = await createTenant(server.services, server.url, 'Vectors of a chain');
    const [first] = await remember(org.owner);
    const [second] = await remember(org.owner, 1, { supersedes: [first] });
    const [third] = await remember(org.owner, 1, { supersedes: [second] });
    expect((await org.owner.api.delete(`/v1/memory/${third}`)).status).toBe(204);
    expect(await vectorsOf([first!, second!, third!])).toBe(0);
  });

  it('PATCH of the content: the old vector goes with the change, the new one comes after', async () => {
    const org = await createTenant(server.services, server.url, 'Vectors changed');
    const [id] = await remember(org.owner);
    const keysOf = async () => {
      const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>('SELECT v.content_key AS vector_key, m.content_key AS memory_key FROM memory_vectors v JOIN memory m ON m.id = v.memory_id WHERE v.memory_id = ?', [id]);
      return rows as { vector_key: string; memory_key: string }[];
    };
    const [before] = await keysOf();
    expectStatus(await org.owner.api.patch(`/v1/memory/${id}`, { body: { content: 'The heron plan is cancelled' } }), 200);
    // The queue may already have embedded the new text, never is the old text's vector left.
    expect((await keysOf()).map((row) => row.vector_key)).not.toContain(before!.vector_key);
    await server.embeddings.idle();
    const [after] = await keysOf();
    expect(after!.vector_key).toBe(after!.memory_key);
  });

  it("an admin's purge of a member's memories, and a member's removal", async () => {
    const org = await createTenant(server.services, server.url, 'Vectors purged');
    const purged = await org.addMember();
    const removed = await org.addMember();
    const ofPurged = await remember(purged, 2);
    const ofRemoved = await remember(removed, 2);
    expect((await org.owner.api.delete(`/v1/admin/members/${purged.userId}/memories`)).status).toBe(200);
    expect((await org.owner.api.delete(`/v1/org/members/${removed.userId}`)).status).toBe(200);
    expect(await vectorsOf([...ofPurged, ...ofRemoved])).toBe(0);
  });

  it('the deletion of the org', async () => {
    const doomed = await createTenant(server.services, server.url, 'Vectors of a deleted org');
    const ids = [...(await remember(doomed.owner, 2)), ...(await remember(doomed.owner, 1, { scope: 'org' }))];
    const res = await fetch(`${server.url}/v1/admin/orgs/${doomed.orgId}`, { method: 'DELETE', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await vectorsOf(ids)).toBe(0);
  });

  it('expiry and retention (the maintenance jobs)', async () => {
    const org = await createTenant(server.services, server.url, 'Vectors expired');
    const retained = await createTenant(server.services, server.url, 'Vectors retained');
    const expiring = await remember(org.owner, 2, { ttl_seconds: 60 });
    const old = await remember(retained.owner, 2);
    expectStatus(await retained.owner.api.patch('/v1/org', { body: { memory_retention_days: 1 } }), 200);
    clock.advance(2 * DAY_MS);
    const report = await server.maintenance.run();
    expect(report.removed.memory_expiry?.memories).toBeGreaterThanOrEqual(2);
    expect(report.removed.memory_retention?.memories).toBeGreaterThanOrEqual(2);
    expect(await vectorsOf([...expiring, ...old])).toBe(0);
  });
});
