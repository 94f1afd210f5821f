import { drizzle } from 'drizzle-orm/mysql2';
import mysql from 'mysql2/promise';
import * as schema from '../schema';
import { traceStatements, type StatementTracer } from './instrument';
import { queryOnTakenConnections } from './pool';
import { useFastPaths, setStatementLogger, type StatementLogger } from './switch';
import type { Database } from './types';

export interface DatabaseOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** How long to wait for a connection to open before the request fails with 503. */
  connectTimeoutMs?: number;
  /**
   * The driver fast paths of this folder (DATABASE_FAST_PATHS, default true); false runs
   * drizzle and mysql2 through their public API only (docs/adr/0007-driver-seam.md).
   */
  fastPaths?: boolean;
  /** Sees every statement drizzle sends (benchmarks replay them on the raw driver). */
  logQuery?: StatementLogger;
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
  const fastPaths = options.fastPaths ?? true;
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
    // No async stack captured per statement; errors are logged by name, code and
    // message, never by driver stack.
    trace: false,
  });
  // READ COMMITTED for every connection: our transactions lock the rows they change
  // explicitly (FOR UPDATE), and without gap locks concurrent appends to different
  // workstreams never block each other. Set once per connection, not per transaction.
  pool.on('connection', (connection) => {
    void connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    // Search reads the owners' statistics as one GROUP_CONCAT (search/stats.ts): MySQL 8's
    // default 1 KiB would cut them; 16 MiB is far above what 256 terms can hold.
    void connection.query('SET SESSION group_concat_max_len = 16777216');
  });
  if (fastPaths) queryOnTakenConnections(pool);
  if (options.traceStatement) traceStatements(pool, options.traceStatement);
  const db = drizzle(pool, { schema, mode: 'default', ...(options.logQuery ? { logger: { logQuery: options.logQuery } } : {}) });
  if (options.logQuery) setStatementLogger(db, options.logQuery);
  if (fastPaths) useFastPaths(db);
  return { db, pool, close: () => pool.end() };
}
