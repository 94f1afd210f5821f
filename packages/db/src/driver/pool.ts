import type mysql from 'mysql2/promise';

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
 * Fast path: each autocommit statement of the pool (`pool.query`, which drizzle and our
 * own queries use) goes out on a connection taken from the pool and given back when it is
 * answered, as mysql2's `pool.execute` does. mysql2's own `pool.query` wraps each
 * statement's result callback in a closure of its own, with which the rows of a result
 * outlive two young-generation collections and are promoted to the old generation: under
 * load, collecting them was a large share of the service's CPU per search.
 */
export function queryOnTakenConnections(pool: mysql.Pool): void {
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
