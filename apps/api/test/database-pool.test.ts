import { openDatabase, type DatabaseHandle } from '@memory-bank/db/system';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMigratedDatabase } from './support/database';

// With fast paths, autocommit statements go out on a connection taken from the pool and given
// back when they are answered (packages/db/src/driver/pool.ts): answers, errors and the
// pool's connections must be what mysql2's own pool.query gives, as it gives them without.
let database: Awaited<ReturnType<typeof createMigratedDatabase>>;

beforeAll(async () => {
  database = await createMigratedDatabase(inject('databaseServerUrl'), 'pool');
});
afterAll(async () => {
  await database?.drop();
});

describe.each([true, false])('pool.query (fast paths %s)', (fastPaths) => {
  let handle: DatabaseHandle;
  const table = `pool_probe_${fastPaths}`;
  beforeAll(async () => {
    // One connection: a statement that kept it would leave every later one waiting.
    handle = openDatabase(database.url, { poolSize: 1, fastPaths });
    await handle.pool.query(`CREATE TABLE ${table} (id INT PRIMARY KEY)`);
  });
  afterAll(async () => {
    await handle?.close();
  });
  const connectionId = async () => ((await handle.pool.query<mysql.RowDataPacket[]>('SELECT CONNECTION_ID() AS id'))[0][0] as { id: number }).id;

  it('answers rows and fields, as arrays when asked, and gives the connection back', async () => {
    for (let i = 0; i < 20; i++) {
      const [rows, fields] = await handle.pool.query<mysql.RowDataPacket[]>('SELECT ? AS n, ? AS s', [i, `x${i}`]);
      expect(rows).toEqual([{ n: i, s: `x${i}` }]);
      expect(fields.map((field) => field.name)).toEqual(['n', 's']);
    }
    const [arrays] = await handle.pool.query({ sql: 'SELECT 1 AS a, 2 AS b', rowsAsArray: true });
    expect(arrays).toEqual([[1, 2]]);
  });

  it('fails a bad statement with the server error and keeps the connection', async () => {
    const before = await connectionId();
    for (let i = 0; i < 5; i++) await expect(handle.pool.query('SELEC 1')).rejects.toMatchObject({ code: 'ER_PARSE_ERROR' });
    expect(await connectionId()).toBe(before);
  });

  it('drops a connection that answers as read-only (a failed-over primary) instead of reusing it', async () => {
    const before = await connectionId();
    await handle.pool.query('SET SESSION TRANSACTION READ ONLY');
    await expect(handle.pool.query(`INSERT INTO ${table} VALUES (1)`)).rejects.toMatchObject({ errno: 1792 });
    // A new connection, read-write again.
    expect(await connectionId()).not.toBe(before);
    await handle.pool.query(`INSERT INTO ${table} VALUES (2)`);
    const [rows] = await handle.pool.query<mysql.RowDataPacket[]>(`SELECT id FROM ${table}`);
    expect(rows).toEqual([{ id: 2 }]);
  });
});
