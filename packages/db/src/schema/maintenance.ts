import { mysqlTable, primaryKey, varchar } from 'drizzle-orm/mysql-core';
import { jsonColumn, timestamp } from './columns';

/**
 * Who runs a background job across replicas: one row per job, held by one process until
 * `leased_until` (renewed while it works). A process that dies leaves a lease that ends by
 * itself, and another picks the job up.
 */
export const maintenanceLeases = mysqlTable('maintenance_leases', {
  job: varchar('job', { length: 64 }).primaryKey(),
  holder: varchar('holder', { length: 64 }).notNull(),
  leasedUntil: timestamp('leased_until').notNull(),
});

export type MaintenanceLeaseRow = typeof maintenanceLeases.$inferSelect;

/**
 * What the background jobs removed, one row per run that removed something (counts only,
 * never content, never an org): `pnpm cli doctor` reports the last day of them. Rows older
 * than a week are deleted by the loop itself.
 */
export const maintenanceRuns = mysqlTable(
  'maintenance_runs',
  {
    job: varchar('job', { length: 64 }).notNull(),
    finishedAt: timestamp('finished_at').notNull(),
    holder: varchar('holder', { length: 64 }).notNull(),
    startedAt: timestamp('started_at').notNull(),
    counts: jsonColumn<Record<string, number>>('counts').notNull(),
  },
  (t) => [primaryKey({ name: 'maintenance_runs_job_finished', columns: [t.job, t.finishedAt, t.holder] })],
);

export type MaintenanceRunRow = typeof maintenanceRuns.$inferSelect;
