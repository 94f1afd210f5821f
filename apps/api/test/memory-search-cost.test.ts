import { newId, searchMemories, type OwnerScope } from '@memory-bank/db';
import { insertMemoriesBulk, openDatabase, ownerScopeOf, type DatabaseHandle } from '@memory-bank/db/system';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { COMMON_WORD } from '../../../packages/db/src/search/selectivity';
import { RECENT_WINDOW } from '../../../packages/db/src/queries/memory';
import { createMigratedDatabase, rowsRead } from './support/database';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/*
 * A search's cost, in rows the database reads, is bounded whatever the owner holds: a word
 * in most of a large owner's memories is not looked up in the FULLTEXT index (which reads
 * every row holding it before the candidates are cut) but among the owner's newest
 * memories, and ranks the candidates all the same.
 */
let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
let server: TestServer;
let tenant: TestTenant;
let owner: OwnerScope;
let probe: DatabaseHandle;
/** Far more than the window, and than a common word's bound. */
const MEMORIES = 6000;

beforeAll(async () => {
  database = await createMigratedDatabase(inject('databaseServerUrl'), 'searchcost');
  server = await startTestServer({ databaseUrl: database.url });
  tenant = await createTenant(server.services, server.url, 'Search cost');
  owner = ownerScopeOf({ orgId: tenant.orgId, id: tenant.owner.userId, role: 'owner' });
  probe = openDatabase(database.url, { poolSize: 1 });
  // Every memory holds "deploy" and half of them "rollback"; one in a thousand "pgbouncer".
  const start = Date.now() - MEMORIES * 1000;
  for (let offset = 0; offset < MEMORIES; offset += 1000) {
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const n = offset + i;
      const createdAt = new Date(start + n * 1000);
      const content = `Deploy note ${n}: ${n % 2 === 0 ? 'rollback plan ready' : 'all checks green'}${n % 1000 === 7 ? ', pgbouncer restarted first' : ''}`;
      return { id: newId('memory', createdAt), orgId: tenant.orgId, userId: tenant.owner.userId, scope: 'user' as const, source: 'api' as const, content, tags: [], createdAt };
    });
    await insertMemoriesBulk(server.database.db, rows);
  }
}, 120_000);
afterAll(async () => {
  await probe?.close();
  await server?.close();
  await database?.drop();
});

describe('the cost of a search of a large owner', () => {
  it('stays bounded for words most memories hold, and still finds and ranks them', async () => {
    expect(MEMORIES * 0.5).toBeGreaterThan(Math.max(COMMON_WORD.minDocs, MEMORIES * COMMON_WORD.share));
    expect(MEMORIES).toBeGreaterThan(4 * RECENT_WINDOW);
    let results: Awaited<ReturnType<typeof searchMemories>>['results'] = [];
    const read = await rowsRead(probe, async () => (results = (await searchMemories(probe.db, owner, { query: 'deploy rollback', limit: 10 })).results));
    expect(results).toHaveLength(10);
    expect(results.every((memory) => /rollback/.test(memory.content))).toBe(true);
    // The newest first among equals: the window is the owner's newest memories.
    expect(results[0]!.content).toMatch(new RegExp(`^Deploy note ${MEMORIES - 2}:`));
    // Looked up in the FULLTEXT index, every one of the owner's memories would be read.
    expect(read).toBeLessThan(MEMORIES / 2);
  });

  it('looks up the rare words of a query and ranks the common ones with them', async () => {
    let results: Awaited<ReturnType<typeof searchMemories>>['results'] = [];
    const read = await rowsRead(probe, async () => (results = (await searchMemories(probe.db, owner, { query: 'pgbouncer deploy', limit: 20 })).results));
    const withRareWord = results.filter((memory) => /pgbouncer/.test(memory.content));
    expect(withRareWord).toHaveLength(MEMORIES / 1000);
    expect(withRareWord.map((memory) => memory.content)).toContain('Deploy note 7: all checks green, pgbouncer restarted first');
    expect(results.slice(0, withRareWord.length)).toEqual(withRareWord);
    expect(results.length).toBe(20);
    expect(read).toBeLessThan(MEMORIES / 2);
  });
});
