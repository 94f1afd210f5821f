import { memoriesWithoutVector, newId, type OrgScope } from '@memory-bank/db';
import { insertMemoriesBulk, openDatabase, orgScopeOf, type DatabaseHandle } from '@memory-bank/db/system';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createMigratedDatabase, rowsRead } from './support/database';
import { startTestServer, type TestServer } from './support/server';

/*
 * The backfill's sweep of an org reads that org's rows, whatever other orgs hold: it walks
 * the org's (org_id, scope, id) index, where the primary key's id order would read every
 * org's rows after the cursor.
 */
let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
let server: TestServer;
let probe: DatabaseHandle;
let small: OrgScope;
let lastOwnId: string;
/** As many as the org's own, before them and after them (ids grow with time). */
const MEMORIES = 2000;
const BATCH = 64;

beforeAll(async () => {
  database = await createMigratedDatabase(inject('databaseServerUrl'), 'vectorcost');
  server = await startTestServer({ databaseUrl: database.url });
  probe = openDatabase(database.url, { poolSize: 1 });
  const mine = await server.services.operator.provision({ name: 'Small', ownerEmail: 'small@cost.example' }, 'test');
  const theirs = await server.services.operator.provision({ name: 'Large', ownerEmail: 'large@cost.example' }, 'test');
  small = orgScopeOf({ id: mine.org.id });
  const start = Date.now();
  const rows = (org: typeof mine, from: number) =>
    Array.from({ length: MEMORIES }, (_, i) => ({ id: newId('memory', new Date(start + from + i)), orgId: org.org.id, userId: org.user.id, scope: 'user' as const, source: 'api' as const, content: `note ${from + i}`, tags: [], createdAt: new Date(start + from + i) }));
  for (const [org, from] of [[theirs, 0], [mine, MEMORIES], [theirs, 2 * MEMORIES]] as const) {
    const batch = rows(org, from);
    for (let i = 0; i < batch.length; i += 1000) await insertMemoriesBulk(server.database.db, batch.slice(i, i + 1000));
  }
  const [[own]] = (await probe.pool.query('SELECT MAX(id) AS id FROM memory WHERE org_id = ?', [small.orgId])) as unknown as [{ id: string }[]];
  lastOwnId = own!.id;
  await probe.pool.query('ANALYZE TABLE memory');
}, 120_000);
afterAll(async () => {
  await probe?.close();
  await server?.close();
  await database?.drop();
});

it("reads only the org's own rows to find what it has to embed, however much another org holds before and after them", async () => {
  let found: unknown[] = [];
  const first = await rowsRead(probe, async () => (found = await memoriesWithoutVector(probe.db, small, 'cost:model', { scope: 'user', afterId: '', limit: BATCH })));
  expect(found).toHaveLength(BATCH);
  expect(first).toBeLessThan(BATCH * 4);
  // Past the org's last memory: nothing left to find, a sweep's last step.
  const last = await rowsRead(probe, async () => (found = await memoriesWithoutVector(probe.db, small, 'cost:model', { scope: 'user', afterId: lastOwnId, limit: BATCH })));
  expect(found).toHaveLength(0);
  expect(last).toBeLessThan(BATCH);
});
