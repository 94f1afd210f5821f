/**
 * The one switch of the driver seam: which executors (a pooled database, or a database
 * bound to one connection for a transaction) take the fast paths of this folder. Everything
 * not registered here runs drizzle and mysql2 through their public API only.
 */
const fast = new WeakSet<object>();

export function useFastPaths(executor: object): void {
  fast.add(executor);
}

export function fastPathsOn(executor: object): boolean {
  return fast.has(executor);
}

/** Sees a statement's text and values as it is sent (drizzle's logger; benchmarks replay them). */
export type StatementLogger = (query: string, params: unknown[]) => void;

const loggers = new WeakMap<object, StatementLogger>();

export function setStatementLogger(executor: object, logger: StatementLogger): void {
  loggers.set(executor, logger);
}

export function statementLoggerOf(executor: object): StatementLogger | undefined {
  return loggers.get(executor);
}
