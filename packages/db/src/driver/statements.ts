import { sql, type SQL } from 'drizzle-orm';
import type mysql from 'mysql2/promise';
import type { Database, Executor } from './types';
import { withPlainRows } from './rows';
import { fastPathsOn, statementLoggerOf } from './switch';

/** True for a drizzle database (pooled, or bound to one connection), false for drizzle's transaction object. */
export function isDatabase(ex: Executor): ex is Database {
  return '$client' in ex;
}

const caches = new WeakMap<object, Map<string, unknown>>();

/** `build()` once per `owner` (a database or a connection) and `key`. */
function cached<T>(owner: object, key: string, build: () => T): T {
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, (cache = new Map()));
  let value = cache.get(key) as T | undefined;
  if (value === undefined) {
    value = build();
    cache.set(key, value);
  }
  return value;
}

/**
 * A prepared statement for `ex`. Fast path: built once per database or connection and
 * `key` (drizzle spends more CPU building a statement than mysql2 spends sending it and
 * reading a page of rows back), selects decoded by position (rows.ts). Otherwise drizzle
 * builds it afresh.
 */
export function preparedOn<Q>(ex: Executor, key: string, build: (ex: Executor) => { prepare(): Q }): Q {
  return fastPathsOn(ex) ? cached(ex, key, () => withPlainRows(build(ex).prepare())) : build(ex).prepare();
}

/** A statement whose text and values the caller built, for the driver to send as is. */
export interface DriverStatement {
  sql: string;
  values: unknown[];
  /**
   * Send it as a server-side prepared statement (mysql2 `execute`, cached per connection,
   * values in the binary protocol): for a shape sent again and again. Otherwise as text.
   */
  prepare: boolean;
}

/**
 * Fast path: sends `statement` on the executor's mysql2 client, where drizzle would walk a
 * template of every row's values to build the same text (a large share of a save's or an
 * append's CPU). Otherwise runs `plain`, the same statement built by drizzle.
 */
export async function sendStatement(ex: Executor, statement: () => DriverStatement, plain: (ex: Executor) => Promise<unknown>): Promise<void> {
  if (!fastPathsOn(ex) || !isDatabase(ex)) {
    await plain(ex);
    return;
  }
  const { sql: text, values, prepare } = statement();
  statementLoggerOf(ex)?.(text, values);
  const client = ex.$client;
  if (prepare) await client.execute(text, values as mysql.ExecuteValues[]);
  else await client.query(text, values);
}

/** The rows of a SELECT written as SQL (drizzle's mysql2 `execute` answers the driver's `[rows, fields]`). */
export async function selectRows<T>(ex: Pick<Executor, 'execute'>, query: SQL): Promise<T[]> {
  const [rows] = (await ex.execute(query)) as unknown as [T[]];
  return rows;
}

/**
 * A statement placeholder where drizzle's types take SQL (an update's `set`): its value
 * goes to the driver as given, Dates as the pool's UTC text (what drizzle's datetime
 * columns send).
 */
export function placeholderValue<T>(name: string): SQL<T> {
  return sql<T>`${sql.placeholder(name)}`;
}

/** Pads a list to the next size in `sizes` (repeating the first item), so few statement shapes cover all. */
export function padded<T>(values: readonly T[], sizes: readonly number[]): T[] {
  const size = sizes.find((candidate) => candidate >= values.length) ?? values.length;
  return [...values, ...Array.from({ length: size - values.length }, () => values[0]!)];
}
