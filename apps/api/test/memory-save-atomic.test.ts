import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMigratedDatabase } from './support/database';
import { expectStatus } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/*
 * A save answers an error only when nothing of it was saved: the memory, its contexts and
 * the search statistics that count it commit together, so a client that retries after an
 * error stores the memory once. The statistics are made to fail with a trigger of a
 * database of this file's own (a lock wait that timed out, as a busy owner's row can).
 */
let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
let server: TestServer;
let tenant: TestTenant;

beforeAll(async () => {
  database = await createMigratedDatabase(inject('databaseServerUrl'), 'atomic');
  server = await startTestServer({ databaseUrl: database.url });
  tenant = await createTenant(server.services, server.url);
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

const count = async (table: 'memory' | 'memory_context', content: string) => {
  const query =
    table === 'memory'
      ? 'SELECT COUNT(*) AS n FROM memory WHERE org_id = ? AND content = ?'
      : 'SELECT COUNT(*) AS n FROM memory_context c JOIN memory m ON m.id = c.memory_id WHERE m.org_id = ? AND m.content = ?';
  const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>(query, [tenant.orgId, content]);
  return Number(rows[0]!.n);
};

describe('a save whose search statistics cannot be written', () => {
  it.each([
    ['alone', {}],
    ['with contexts', { contexts: [{ snippet: 'from the planning call' }] }],
  ])('(%s) answers 503, leaves nothing, and saves once when retried', async (_, extra) => {
    const content = `Quarterly planning moved to Thursdays ${Math.random().toString(36).slice(2)}`;
    await server.database.pool.query(
      "CREATE TRIGGER statistics_unavailable BEFORE INSERT ON memory_term_stats FOR EACH ROW SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1205, MESSAGE_TEXT = 'Lock wait timeout exceeded; try restarting transaction'",
    );
    try {
      const failed = await tenant.owner.api.post('/v1/memory', { body: { content, ...extra } });
      expectStatus(failed, 503);
      expect(failed.headers.get('retry-after')).toBeTruthy();
      expect(await count('memory', content)).toBe(0);
      expect(await count('memory_context', content)).toBe(0);
    } finally {
      await server.database.pool.query('DROP TRIGGER IF EXISTS statistics_unavailable');
    }
    const retried = await tenant.owner.api.post('/v1/memory', { body: { content, ...extra } });
    expectStatus(retried, 201);
    expect(await count('memory', content)).toBe(1);
    const found = await tenant.owner.api.get(`/v1/memory/search?q=${encodeURIComponent(content.split(' ').at(-1)!)}`);
    expectStatus(found, 200);
    expect(found.body.results.map((memory) => memory.content)).toEqual([content]);
  });
});
