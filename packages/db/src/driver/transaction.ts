import { drizzle } from 'drizzle-orm/mysql2';
import type mysql from 'mysql2/promise';
import * as schema from '../schema';
import type { Database, Executor } from './types';
import { fastPathsOn, setStatementLogger, statementLoggerOf, useFastPaths } from './switch';

/** Per pooled connection: a drizzle database bound to it, so its prepared statements outlive one transaction. */
const bound = new WeakMap<object, Database>();

/**
 * The one transaction helper: runs `work` in a transaction (READ COMMITTED, like every
 * connection of the pool). Whatever `work` throws rolls the transaction back and comes out
 * unchanged: services throw their own errors (AppError) inside and the edge — HTTP, MCP,
 * the CLI — renders them.
 *
 * Fast path: on one pooled connection, handing `work` a drizzle database bound to that
 * connection, whose prepared statements are cached with the connection. Otherwise
 * drizzle's own `db.transaction`.
 */
export async function inTransaction<T>(db: Database, work: (tx: Executor) => Promise<T>): Promise<T> {
  if (!fastPathsOn(db)) return db.transaction((tx) => work(tx));
  const connection = await (db.$client as mysql.Pool).getConnection();
  // getConnection() wraps the pooled connection in a new object each time: the bound
  // database is kept by the connection underneath.
  const underlying = (connection as unknown as { connection: object }).connection;
  let tx = bound.get(underlying);
  if (!tx) {
    const logQuery = statementLoggerOf(db);
    tx = drizzle(connection, { schema, mode: 'default', ...(logQuery ? { logger: { logQuery } } : {}) });
    if (logQuery) setStatementLogger(tx, logQuery);
    useFastPaths(tx);
    bound.set(underlying, tx);
  }
  try {
    await connection.query('BEGIN');
    const result = await work(tx);
    await connection.query('COMMIT');
    return result;
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    connection.release();
  }
}
