import { tracingChannel } from 'node:diagnostics_channel';
import type mysql from 'mysql2/promise';
import type { Database } from './types';

/**
 * Hooks for metrics and tracing. Nothing here is installed unless asked for, so a process
 * with both off runs the driver untouched.
 */

/** Runs one statement (inside a tracing span, say). Sees the statement text only: never its values. */
export type StatementTracer = <T>(statement: string, run: () => Promise<T>) => Promise<T>;

type Runner = (...args: unknown[]) => Promise<unknown>;

/** The text of what drizzle or our own code hands to query()/execute(): a string or `{ sql, … }`; values travel apart. */
function statementText(first: unknown): string {
  if (typeof first === 'string') return first;
  const sql = (first as { sql?: unknown } | null)?.sql;
  return typeof sql === 'string' ? sql : '';
}

function traceMethods(target: object, trace: StatementTracer): void {
  const methods = target as Record<'query' | 'execute', Runner>;
  for (const name of ['query', 'execute'] as const) {
    const original = methods[name].bind(target);
    methods[name] = (...args) => trace(statementText(args[0]), () => original(...args));
  }
}

/**
 * Sends every statement of `pool` — autocommit ones and those on a connection taken for a
 * transaction — through `trace`. At the promise API, so a statement's time includes the
 * wait for a pooled connection, and the caller's async context (its span) is the parent.
 */
export function traceStatements(pool: mysql.Pool, trace: StatementTracer): void {
  traceMethods(pool, trace);
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = async () => {
    // A new wrapper object per call (the driver's), so each one is instrumented.
    const connection = await getConnection();
    traceMethods(connection, trace);
    return connection;
  };
}

/** What poolUsage reads of mysql2's pool (lib/pool.js, pinned): it has no public count of its connections. */
interface CorePool {
  config: { connectionLimit: number; connectionConfig: { database?: string } };
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

const corePool = (db: Database): CorePool => (db.$client as mysql.Pool & { pool: CorePool }).pool;

export interface PoolUsage {
  /** connectionLimit */
  size: number;
  /** Connections open and lent out. */
  inUse: number;
  /** Connections open and idle. */
  free: number;
  /** Callers waiting for a connection. */
  queued: number;
}

/** The pool behind `db`, now (only its size when a mysql2 upgrade moved what the counts are read from). */
export function poolUsage(db: Database): PoolUsage {
  const pool = corePool(db);
  const open = pool._allConnections?.length ?? 0;
  const free = pool._freeConnections?.length ?? 0;
  return { size: pool.config.connectionLimit, inUse: open - free, free, queued: pool._connectionQueue?.length ?? 0 };
}

interface AcquireContext {
  database?: string;
}

/**
 * Calls `onAcquired(seconds)` for each connection taken from the pool of `db` (including
 * the time to open a new one), from the driver's `mysql2:pool:connect` tracing channel.
 * Returns the unsubscribe function.
 */
export function observeConnectionAcquisition(db: Database, onAcquired: (seconds: number) => void): () => void {
  const database = corePool(db).config.connectionConfig.database ?? '';
  const channel = tracingChannel<string, AcquireContext>('mysql2:pool:connect');
  const started = new WeakMap<object, number>();
  const handlers = {
    start(context: AcquireContext) {
      if (context.database === database) started.set(context, performance.now());
    },
    asyncStart(context: AcquireContext) {
      const at = started.get(context);
      if (at !== undefined) onAcquired((performance.now() - at) / 1000);
    },
    end() {},
    asyncEnd() {},
    error() {},
  };
  channel.subscribe(handlers);
  return () => channel.unsubscribe(handlers);
}
