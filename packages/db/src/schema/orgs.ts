import { boolean, index, mysqlEnum, mysqlTable, smallint, uniqueIndex, varchar } from 'drizzle-orm/mysql-core';
import { idColumn, timestamp } from './columns';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const orgs = mysqlTable('orgs', {
  id: idColumn('id').primaryKey(),
  name: varchar('name', { length: 200 }).notNull(),
  createdAt: timestamp('created_at').notNull(),
  /** Secrets in memory content and contexts are redacted on save and update (an admin may turn it off). */
  redactMemorySecrets: boolean('redact_memory_secrets').notNull().default(true),
  /** A save equal to a live memory of the same owner and scope adds to it instead of storing a copy. */
  dedupeMemories: boolean('dedupe_memories').notNull().default(true),
  /** Memories not changed for this many days are deleted (pinned ones kept); NULL: kept. */
  memoryRetentionDays: smallint('memory_retention_days', { unsigned: true }),
  /** Workstream events older than this many days leave the ledger and the archive; NULL: kept. */
  workstreamRetentionDays: smallint('workstream_retention_days', { unsigned: true }),
});

export const users = mysqlTable(
  'users',
  {
    id: idColumn('id').primaryKey(),
    orgId: idColumn('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: 320 }).notNull(),
    role: mysqlEnum('role', ROLES).notNull(),
    /** The OpenID Connect identity (issuer + subject) a web app signs this user in with. */
    oidcIssuer: varchar('oidc_issuer', { length: 255 }),
    oidcSubject: varchar('oidc_subject', { length: 255 }),
    createdAt: timestamp('created_at').notNull(),
    /** Removed from the org: cannot sign in; their keys are revoked. */
    removedAt: timestamp('removed_at'),
  },
  (t) => [
    uniqueIndex('users_org_email').on(t.orgId, t.email),
    index('users_org_id').on(t.orgId, t.id),
    uniqueIndex('users_oidc_identity').on(t.oidcIssuer, t.oidcSubject),
  ],
);

export type OrgRow = typeof orgs.$inferSelect;
export type UserRow = typeof users.$inferSelect;

/** The `org_id` column of a tenant-owned table: deleting the org deletes its rows. */
export const orgIdColumn = () =>
  idColumn('org_id')
    .notNull()
    .references(() => orgs.id, { onDelete: 'cascade' });

/** The `user_id` column of a user-owned table: deleting the user deletes their rows. */
export const userIdColumn = () =>
  idColumn('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
