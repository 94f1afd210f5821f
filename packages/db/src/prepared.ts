import { Column, Param, Placeholder, SQL, Subquery, is, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/mysql2';
import type mysql from 'mysql2/promise';
import type { Database, Executor } from './client';
import * as schema from './schema';

/**
 * Hot statements are built once and reused. drizzle spends more CPU building a statement
 * (~0.1–0.2 ms) than mysql2 spends sending it and reading 20 rows back, so the busiest
 * paths — authentication, search, reads, ingestion — keep prepared statements: per pool
 * for autocommit reads, per pooled connection for transactions.
 */

const caches = new WeakMap<object, Map<string, unknown>>();

/** `build()` once per `owner` (a database or a connection) and `key`. */
export function cached<T>(owner: object, key: string, build: () => T): T {
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, (cache = new Map()));
  let value = cache.get(key) as T | undefined;
  if (value === undefined) {
    value = build();
    cache.set(key, value);
  }
  return value;
}

/** Options openDatabase registered for a database (the statement logger of benchmarks). */
export const databaseOptions = new WeakMap<object, { logQuery?: (query: string, params: unknown[]) => void }>();

/** True for the pooled database itself (prepared statements apply); false inside a transaction. */
export function isDatabase(ex: Executor): ex is Database {
  return '$client' in ex;
}

/**
 * The one transaction helper. Runs `work` in a transaction (READ COMMITTED, like every
 * connection of the pool) on one pooled connection, handing it a drizzle instance bound to
 * that connection, whose prepared statements are cached with the connection. Whatever
 * `work` throws rolls the transaction back and comes out unchanged: services throw their
 * own errors (AppError) inside and the edge — HTTP, MCP, the CLI — renders them.
 */
export async function inTransaction<T>(db: Database, work: (connection: Database) => Promise<T>): Promise<T> {
  const pool = (db as Database & { $client: mysql.Pool }).$client;
  const connection = await pool.getConnection();
  const logQuery = databaseOptions.get(db)?.logQuery;
  // getConnection() wraps the pooled connection in a new promise object each time: cache
  // by the connection underneath, so its prepared statements outlive one transaction.
  const underlying = (connection as unknown as { connection: object }).connection;
  const bound = cached(underlying, 'drizzle', () =>
    drizzle(connection, { schema, mode: 'default', ...(logQuery ? { logger: { logQuery } } : {}) }),
  ) as unknown as Database;
  try {
    await connection.query('BEGIN');
    const result = await work(bound);
    await connection.query('COMMIT');
    return result;
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    connection.release();
  }
}

/**
 * A prepared statement for `ex`: built once and cached when `ex` is a database or a
 * connection-bound instance (see inTransaction), built afresh inside a drizzle transaction.
 */
export function preparedOn<Q>(ex: Executor, key: string, build: (ex: Executor) => { prepare(): Q }): Q {
  return isDatabase(ex) ? cached(ex, key, () => withPlainRows(build(ex).prepare())) : build(ex).prepare();
}

/** What withPlainRows reads of drizzle's mysql2 prepared query (drizzle-orm/mysql2/session.js, pinned). */
interface DrizzleMysql2Prepared {
  client: { query(options: mysql.QueryOptions, values: unknown[]): Promise<[unknown, unknown]> };
  query: { sql: string };
  params: unknown[];
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
  logger: { logQuery(sql: string, params: unknown[]): void };
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** How drizzle decodes a selected field's value (as its mapResultRow does). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  const expression = is(field, SQL) ? field : is(field, Subquery) ? (field as unknown as { _: { sql: SQL } })._.sql : (field as { sql: SQL }).sql;
  return (expression as unknown as { decoder: Decoder }).decoder;
}

/** A function of the execute() values giving one statement parameter (drizzle's fillPlaceholders, decided once). */
function parameterOf(param: unknown): (values: Record<string, unknown>) => unknown {
  const named = (name: string, encode: (value: unknown) => unknown) => (values: Record<string, unknown>) => {
    if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
    return encode(values[name]);
  };
  if (is(param, Placeholder)) return named(param.name, (value) => value);
  if (is(param, Param) && is(param.value, Placeholder)) return named(param.value.name, (value) => param.encoder.mapToDriverValue(value));
  return () => param;
}

/**
 * A prepared select whose rows are decoded by position with decoders looked up once,
 * where drizzle's execute() asks each field of each row what kind of field it is and
 * calls a typeCast function per value (on a search's 64 candidates, 0.6–1.0 ms of the
 * service's CPU per search in alternated runs: docs/benchmarks.md). Same statement text,
 * same parameters, same values (apps/api/test/prepared-rows.test.ts): DATETIME columns as
 * the server's text (`dateStrings`, as drizzle's typeCast), every value through its
 * field's own decoder. Anything else — writes, nested selections, custom mappers — keeps
 * drizzle's execute().
 */
function withPlainRows<Q>(prepared: Q): Q {
  const query = prepared as unknown as DrizzleMysql2Prepared;
  const fields = query.fields;
  // A drizzle whose prepared query no longer looks like this keeps its own execute()
  // (prepared-rows.test.ts then fails: it checks this path is the one in use).
  if (!fields || query.customResultMapper || !fields.every((field) => field.path.length === 1) || typeof query.client?.query !== 'function' || typeof query.query?.sql !== 'string' || !Array.isArray(query.params)) {
    return prepared;
  }
  const keys = fields.map((field) => field.path[0]!);
  const decoders = fields.map((field) => decoderOf(field.field));
  const parameters = query.params.map(parameterOf);
  const options: mysql.QueryOptions = { sql: query.query.sql, rowsAsArray: true, dateStrings: true };
  query.execute = async (values: Record<string, unknown> = {}) => {
    const params = parameters.map((parameter) => parameter(values));
    query.logger.logQuery(options.sql, params);
    const [rows] = (await query.client.query(options, params)) as [unknown[][], unknown];
    return rows.map((row) => {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = row[i];
        record[keys[i]!] = value === null ? null : decoders[i]!.mapFromDriverValue(value);
      }
      return record;
    });
  };
  return prepared;
}

/** The mysql2 connection (or pool) under a drizzle executor, for what drizzle cannot send (binary-protocol parameters). */
export function connectionOf(ex: Executor): Pick<mysql.Pool, 'execute'> {
  const client = (ex as { $client?: Pick<mysql.Pool, 'execute'> }).$client;
  if (!client) throw new Error('connectionOf: not a drizzle mysql2 executor');
  return client;
}

/**
 * A statement placeholder where drizzle's types take SQL (an update's `set`): its value
 * goes to the driver as given, Dates as the pool's UTC text (what drizzle's datetime
 * columns send).
 */
export function placeholderValue<T>(name: string): SQL<T> {
  return sql<T>`${sql.placeholder(name)}`;
}

/** Pads a list of ids to the next size in `sizes` (repeating the first), so few statement shapes cover all. */
export function padded<T>(values: readonly T[], sizes: readonly number[]): T[] {
  const size = sizes.find((candidate) => candidate >= values.length) ?? values.length;
  return [...values, ...Array.from({ length: size - values.length }, () => values[0]!)];
}
