import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, migrateDatabase, openDatabase, type DatabaseHandle } from '@memory-bank/db/system';
import mysql from 'mysql2/promise';

/**
 * Where test databases live: a throw-away MySQL 8 container when a container runtime
 * answers (testcontainers), else the server of DATABASE_URL (MariaDB on CI machines).
 * TEST_DATABASE=container|server forces one.
 */
export interface TestDatabaseServer {
  /** mysql://user:pass@host:port (no database). */
  serverUrl: string;
  kind: 'container' | 'server';
  stop(): Promise<void>;
}

const DEFAULT_SERVER = 'mysql://root@127.0.0.1:3306';

function serverOf(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = '';
  parsed.search = '';
  return parsed.toString().replace(/\/$/, '');
}

async function startContainer(): Promise<TestDatabaseServer> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  await getContainerRuntimeClient();
  const { MySqlContainer } = await import('@testcontainers/mysql');
  const container = await new MySqlContainer('mysql:8.4').withRootPassword('test').start();
  return { serverUrl: serverOf(container.getConnectionUri(true)), kind: 'container', stop: async () => void (await container.stop()) };
}

export async function startTestDatabaseServer(): Promise<TestDatabaseServer> {
  const mode = process.env.TEST_DATABASE ?? 'auto';
  if (mode !== 'server') {
    try {
      return await startContainer();
    } catch (error) {
      if (mode === 'container') throw error;
    }
  }
  const serverUrl = serverOf(process.env.DATABASE_URL ?? DEFAULT_SERVER);
  return { serverUrl, kind: 'server', stop: async () => {} };
}

/**
 * Drops test databases (mb_<label>_<base36 time>_<hex>) left behind by runs that were
 * killed before their teardown, once they are a few hours old.
 */
export async function dropStaleTestDatabases(serverUrl: string, olderThanMs = 6 * 3600_000): Promise<void> {
  const connection = await mysql.createConnection({ uri: serverUrl });
  try {
    const [rows] = await connection.query<mysql.RowDataPacket[]>("SHOW DATABASES LIKE 'mb\\_%'");
    for (const row of rows) {
      const name = String(Object.values(row)[0]);
      const match = /^mb_[a-z]+_([0-9a-z]+)_[0-9a-f]{6}$/.exec(name);
      if (match && Date.now() - parseInt(match[1]!, 36) > olderThanMs) await connection.query(`DROP DATABASE \`${name}\``);
    }
  } finally {
    await connection.end();
  }
}

/** A fresh, empty database name on `serverUrl`, as a full URL. */
export function freshDatabaseUrl(serverUrl: string, label = 'test'): string {
  return `${serverUrl}/mb_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

/** Creates and migrates a fresh database; returns its URL and a function that drops it. */
export async function createMigratedDatabase(serverUrl: string, label?: string) {
  const url = freshDatabaseUrl(serverUrl, label);
  await ensureDatabase(url);
  const handle = openDatabase(url, { poolSize: 2 });
  try {
    await migrateDatabase(handle.pool);
  } finally {
    await handle.close();
  }
  return { url, drop: () => dropDatabase(url) };
}

/**
 * Rows the one connection of `probe` (a pool of size 1) read to run `work`: InnoDB's
 * handler reads of the session, less what asking for them costs. What a statement costs
 * the database, independent of the machine's speed.
 */
export async function rowsRead(probe: DatabaseHandle, work: () => Promise<unknown>): Promise<number> {
  const reads = async () => {
    const [rows] = await probe.pool.query<mysql.RowDataPacket[]>("SHOW SESSION STATUS LIKE 'Handler_read%'");
    return rows.reduce((sum, row) => sum + Number(row.Value), 0);
  };
  const first = await reads();
  const asking = (await reads()) - first;
  const before = await reads();
  await work();
  return (await reads()) - before - asking;
}
