import { findMemory, listMemories, newId, type OwnerScope } from '@memory-bank/db';
import { openDatabase, ownerScopeOf, type DatabaseHandle } from '@memory-bank/db/system';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type mysql from 'mysql2/promise';
import { createMigratedDatabase, rowsRead } from './support/database';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/*
 * What a page of memories and a read of one cost, in rows the database reads, must not
 * grow with what the rest of the org or other orgs hold — with the optimiser's statistics
 * stale, as on a server whose tables grew since their last ANALYZE: taken when contexts
 * belonged to many orgs a few each and the owner's org was small, then frozen.
 */
let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
let server: TestServer;
let org: TestTenant;
let other: TestTenant;
let owner: OwnerScope;
let probe: DatabaseHandle;
const OWN = 30;
const CROWD = 3000;

const ids = (n: number, at: Date) => Array.from({ length: n }, () => newId('memory', at));

async function insertMemories(pool: mysql.Pool, tenant: { orgId: string; userId: string }, memoryIds: string[], at: Date, contextsEach: number, contextOrg = tenant.orgId) {
  for (let offset = 0; offset < memoryIds.length; offset += 500) {
    const chunk = memoryIds.slice(offset, offset + 500);
    await pool.query(
      `INSERT INTO memory (id, org_id, user_id, scope, content, source, tags, search_terms, context_count, created_at, updated_at) VALUES ${chunk.map(() => "(?, ?, ?, 'user', 'a memory', 'api', '[]', '', ?, ?, ?)").join(', ')}`,
      chunk.flatMap((id) => [id, tenant.orgId, tenant.userId, contextsEach, at, at]),
    );
    if (contextsEach === 0) continue;
    const contexts = chunk.flatMap((id) => Array.from({ length: contextsEach }, () => [newId('memoryContext', at), id, contextOrg, 'a snippet', at]));
    await pool.query(`INSERT INTO memory_context (id, memory_id, org_id, snippet, origin, created_at) VALUES ${contexts.map(() => "(?, ?, ?, ?, 'active_conversation', ?)").join(', ')}`, contexts.flat());
  }
}

beforeAll(async () => {
  database = await createMigratedDatabase(inject('databaseServerUrl'), 'readcost');
  server = await startTestServer({ databaseUrl: database.url });
  org = await createTenant(server.services, server.url, 'Read cost');
  other = await createTenant(server.services, server.url, 'Read cost, another org');
  const member = await org.addMember();
  owner = ownerScopeOf({ orgId: org.orgId, id: org.owner.userId, role: 'owner' });
  probe = openDatabase(database.url, { poolSize: 1 });
  const pool = probe.pool;
  const early = new Date(Date.now() - 3_600_000);
  // The owner's memories, two contexts each; and contexts of many orgs, one each, on
  // another org's memory (memory_context.org_id names no org row): the statistics then
  // say an org has about one context and a memory several.
  await insertMemories(pool, { orgId: org.orgId, userId: org.owner.userId }, ids(OWN, early), early, 2);
  const [holder] = ids(1, early);
  await insertMemories(pool, { orgId: other.orgId, userId: other.owner.userId }, [holder!], early, 0);
  const manyOrgs = Array.from({ length: 300 }, (_, i) => [newId('memoryContext', early), holder!, `org_statistics${String(i).padStart(12, '0')}`, 's', early]);
  await pool.query(`INSERT INTO memory_context (id, memory_id, org_id, snippet, origin, created_at) VALUES ${manyOrgs.map(() => "(?, ?, ?, ?, 'active_conversation', ?)").join(', ')}`, manyOrgs.flat());
  await pool.query('ANALYZE TABLE memory, memory_context');
  for (const table of ['memory', 'memory_context']) await pool.query(`ALTER TABLE ${table} STATS_AUTO_RECALC = 0`);
  // Then the org grows (another member's memories and contexts), and another org writes newer memories.
  await insertMemories(pool, { orgId: org.orgId, userId: member.userId }, ids(CROWD, early), early, 1);
  const later = new Date();
  await insertMemories(pool, { orgId: other.orgId, userId: other.owner.userId }, ids(CROWD, later), later, 1);
}, 120_000);
afterAll(async () => {
  await probe?.close();
  await server?.close();
  await database?.drop();
});

describe('the cost of reading memories, with stale statistics', () => {
  it('a page of 20 reads a few rows per memory, not the org’s contexts or other orgs’ newer memories', async () => {
    let page: Awaited<ReturnType<typeof listMemories>> | undefined;
    const read = await rowsRead(probe, async () => (page = await listMemories(probe.db, owner, { limit: 20, filter: 'all' })));
    expect(page!.memories).toHaveLength(20);
    expect(page!.memories.every((memory) => memory.contexts.length === 2)).toBe(true);
    // 21 memories, 42 contexts, an index entry or two each: well under 10 per memory.
    expect(read).toBeLessThan(200);
    const own = await rowsRead(probe, () => listMemories(probe.db, owner, { limit: 20, filter: 'user' }));
    expect(own).toBeLessThan(200);
  });

  it('a read of one memory reads its own contexts only', async () => {
    const { id } = (await listMemories(probe.db, owner, { limit: 1 })).memories[0]!;
    let found: Awaited<ReturnType<typeof findMemory>> = null;
    const read = await rowsRead(probe, async () => (found = await findMemory(probe.db, owner, id)));
    expect(found!.contexts).toHaveLength(2);
    expect(read).toBeLessThan(20);
  });
});
