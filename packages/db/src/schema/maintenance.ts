import { mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { timestamp } from './columns';

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
