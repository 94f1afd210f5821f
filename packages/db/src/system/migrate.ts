import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/mysql2';
import { migrate } from 'drizzle-orm/mysql2/migrator';
import mysql from 'mysql2/promise';
import { selectRows, type Database } from '../driver';
import { hasErrorCode } from '../errors';

/**
 * The top-level drizzle/ folder: numbered migrations and their journal. Found by walking
 * up from this module, so it is the same from the sources and from the bundled server.
 */
export const MIGRATIONS_FOLDER = findMigrationsFolder(dirname(fileURLToPath(import.meta.url)));

function findMigrationsFolder(start: string): string {
  for (let directory = start; ; directory = dirname(directory)) {
    const candidate = join(directory, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    if (dirname(directory) === directory) throw new Error(`no drizzle/meta/_journal.json above ${start}`);
  }
}
const MIGRATIONS_TABLE = '__drizzle_migrations';
const LOCK_NAME = 'memory_bank_migrations';

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

function readJournal(): Journal {
  return JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as Journal;
}

/** The database name in a mysql:// URL. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_$-]{1,64}$/.test(name)) {
    throw new Error(`DATABASE_URL must name a database (letters, digits, _ $ -), got "${name}"`);
  }
  return name;
}

/** Where `url` points, safe for logs: host, port and database, never the credentials. */
export function describeDatabase(url: string): string {
  return `${new URL(url).host}/${databaseName(url)}`;
}

/** Creates the database named in `url` if the server does not have it yet; says whether it did. */
export async function ensureDatabase(url: string): Promise<{ created: boolean }> {
  const name = databaseName(url);
  const serverUrl = new URL(url);
  serverUrl.pathname = '/';
  const connection = await mysql.createConnection({ uri: serverUrl.toString(), connectTimeout: 5000 });
  try {
    // One affected row when it was created; none (and a warning) when it existed.
    const [result] = await connection.query<mysql.ResultSetHeader>(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4`);
    return { created: result.affectedRows > 0 };
  } finally {
    await connection.end();
  }
}

/** Drops the database named in `url` (tests and benchmarks only). */
export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const serverUrl = new URL(url);
  serverUrl.pathname = '/';
  const connection = await mysql.createConnection({ uri: serverUrl.toString() });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await connection.end();
  }
}

/**
 * Applies pending migrations and returns the tags it applied (none when another process
 * had applied them). Several processes may start at once: a named lock makes them take
 * turns, and drizzle skips what is already applied.
 */
export async function migrateDatabase(pool: mysql.Pool): Promise<{ applied: string[] }> {
  const connection = await pool.getConnection();
  try {
    const [rows] = await connection.query<mysql.RowDataPacket[]>('SELECT GET_LOCK(?, 120) AS got', [LOCK_NAME]);
    if (rows[0]?.got !== 1) throw new Error('timed out waiting for another process to finish migrating');
    try {
      const db = drizzle(connection);
      const { pending } = await migrationStatus(db);
      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER, migrationsTable: MIGRATIONS_TABLE });
      return { applied: pending };
    } finally {
      await connection.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
    }
  } finally {
    connection.release();
  }
}

export interface MigrationStatus {
  applied: number;
  pending: string[];
}

/** Which migrations of the journal the database has not applied yet. */
export async function migrationStatus(db: Pick<Database, 'execute'>): Promise<MigrationStatus> {
  const journal = readJournal();
  let lastApplied = 0;
  let applied = 0;
  try {
    const rows = await selectRows<{ applied: number | string; last: number | string }>(
      db,
      sql`SELECT COUNT(*) AS applied, COALESCE(MAX(created_at), 0) AS last FROM ${sql.identifier(MIGRATIONS_TABLE)}`,
    );
    applied = Number(rows[0]?.applied ?? 0);
    lastApplied = Number(rows[0]?.last ?? 0);
  } catch (error) {
    if (!hasErrorCode(error, 'ER_NO_SUCH_TABLE')) throw error;
  }
  // drizzle's own rule: a migration is applied when its timestamp is not newer than
  // the newest one recorded.
  const pending = journal.entries.filter((entry) => entry.when > lastApplied).map((entry) => entry.tag);
  return { applied, pending };
}
