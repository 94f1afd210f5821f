import type { MySql2Database } from 'drizzle-orm/mysql2';
import type mysql from 'mysql2/promise';
import type * as schema from '../schema';

export type Schema = typeof schema;
/** A drizzle database on the pool, or bound to one of its connections (inTransaction's fast path). */
export type Database = MySql2Database<Schema> & { $client: mysql.Pool | mysql.PoolConnection };
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Either the database or an open transaction: scoped query helpers accept both. */
export type Executor = Database | Transaction;
