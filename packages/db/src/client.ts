import { drizzle, type MySql2Database } from 'drizzle-orm/mysql2';
import mysql from 'mysql2/promise';
import { traceStatements, type StatementTracer } from './instrument';
import { databaseOptions } from './prepared';
import * as schema from './schema';

export type Schema = typeof schema;
export type Database = MySql2Database<Schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Either the database or an open transaction: scoped query helpers accept both. */
export type Executor = Database | Transaction;

export interface DatabaseOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** How long to wait for a connection to open before the request fails with 503. */
  connectTimeoutMs?: number;
  /** Sees every statement drizzle sends (benchmarks replay them on the raw driver). */
  logQuery?: (query: string, params: unknown[]) => void;
  /** Runs every statement (a tracing span around it); sees statement text, never values. */
  traceStatement?: StatementTracer;
}

export interface DatabaseHandle {
  db: Database;
  pool: mysql.Pool;
  close(): Promise<void>;
}

type QueryCallback = (error: (Error & { errno?: number }) | null, rows?: unknown, fields?: unknown) => void;
interface CoreConnection {
  query(sql: unknown, values: unknown, callback: QueryCallback): unknown;
  release(): void;
  destroy(): void;
}
interface CorePool {
  query(sql: unknown, values?: unknown, callback?: QueryCallback): unknown;
  getConnection(callback: (error: Error | null, connection: CoreConnection) => void): void;
}

/** What a primary turned read-only (a failover) answers: its connections are dropped, not reused (as mysql2 does). */
const READ_ONLY_ERRNOS = new Set([1290, 1792, 1836]);

/**
 * Sends each autocommit statement of the pool (`pool.query`, which drizzle and our own
 * queries use) on a connection taken from the pool and given back when it is answered, as
 * mysql2's `pool.execute` does. mysql2's own `pool.query` wraps each statement's result
 * callback in a closure of its own, and with that wrapper the rows of its results outlive
 * two young-generation collections and are promoted to the old one: measured on 4,000
 * sequential 41-row searches, 99 MB promoted through `pool.query` against 6 MB this way,
 * and 25 % less of the service's CPU per search under load (docs/benchmarks.md).
 */
function queryOnTakenConnections(pool: mysql.Pool): void {
  const core = (pool as unknown as { pool: CorePool }).pool;
  const streamed = core.query.bind(core);
  core.query = (sql, values, callback) => {
    const done = (typeof values === 'function' ? values : callback) as QueryCallback | undefined;
    // Without a callback the caller wants mysql2's query object (its events, a stream).
    if (done === undefined) return streamed(sql, values);
    const args = typeof values === 'function' ? undefined : values;
    core.getConnection((error, connection) => {
      if (error) return done(error);
      try {
        connection.query(sql, args, (failure, rows, fields) => {
          if (failure?.errno !== undefined && READ_ONLY_ERRNOS.has(failure.errno)) connection.destroy();
          else connection.release();
          done(failure, rows, fields);
        });
      } catch (thrown) {
        connection.release();
        done(thrown as Error);
      }
    });
    return undefined;
  };
}

/** A pooled connection to the database named in `url` (mysql://user:pass@host:port/db). */
export function openDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  const pool = mysql.createPool({
    uri: url,
    connectionLimit: options.poolSize ?? 10,
    connectTimeout: options.connectTimeoutMs ?? 3000,
    // A request waits for a free connection rather than failing; the connect timeout
    // bounds the wait when the server is gone.
    waitForConnections: true,
    queueLimit: 0,
    enableKeepAlive: true,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    supportBigNumbers: true,
    bigNumberStrings: false,
    // No async stack captured per statement (a measurable share of CPU on hot paths);
    // errors are logged by name, code and message, never by driver stack.
    trace: false,
  });
  // READ COMMITTED for every connection: our transactions lock the rows they change
  // explicitly (FOR UPDATE), and without gap locks concurrent appends to different
  // workstreams never block each other. Set once per connection, not per transaction.
  pool.pool.on('connection', (connection) => {
    connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    // A memory's contexts are read as one GROUP_CONCAT (queries/memory.ts): MySQL 8's
    // default 1 KiB would cut them; 16 MiB is far above 16 contexts of 4,000 characters.
    connection.query('SET SESSION group_concat_max_len = 16777216');
  });
  queryOnTakenConnections(pool);
  if (options.traceStatement) traceStatements(pool, options.traceStatement);
  const db = drizzle(pool, {
    schema,
    mode: 'default',
    ...(options.logQuery ? { logger: { logQuery: options.logQuery } } : {}),
  });
  databaseOptions.set(db, { ...(options.logQuery ? { logQuery: options.logQuery } : {}) });
  return { db, pool, close: () => pool.end() };
}
