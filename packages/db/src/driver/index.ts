/*
 * The driver seam (docs/adr/0007-driver-seam.md): the only place that reaches into mysql2
 * or drizzle beyond their public API, for measured fast paths, all behind one switch
 * (`fastPaths` of openDatabase, DATABASE_FAST_PATHS). Outside this folder the package is
 * plain drizzle.
 */
export { openDatabase, type DatabaseHandle, type DatabaseOptions } from './database';
export type { Database, Executor, Schema, Transaction } from './types';
export { inTransaction } from './transaction';
export { padded, placeholderValue, preparedOn, selectRows, sendStatement, type DriverStatement } from './statements';
export { observeConnectionAcquisition, poolUsage, type PoolUsage, type StatementTracer } from './instrument';
export { fastPathsOn } from './switch';
