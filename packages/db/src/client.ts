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
  if (options.traceStatement) traceStatements(pool, options.traceStatement);
  const db = drizzle(pool, {
    schema,
    mode: 'default',
    ...(options.logQuery ? { logger: { logQuery: options.logQuery } } : {}),
  });
  databaseOptions.set(db, { ...(options.logQuery ? { logQuery: options.logQuery } : {}) });
  return { db, pool, close: () => pool.end() };
}
