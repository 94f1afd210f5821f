import { index, mysqlEnum, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { idColumn, jsonColumn, timestamp } from './columns';

export const AUDIT_ACTOR_TYPES = ['user', 'operator'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/**
 * Who did what to which ids, with counts — never content. Written in the transaction of
 * the action it records. No foreign key: the record of a deletion outlives what it deleted.
 */
export const auditEvents = mysqlTable(
  'audit_events',
  {
    id: idColumn('id').primaryKey(),
    orgId: idColumn('org_id').notNull(),
    actorType: mysqlEnum('actor_type', AUDIT_ACTOR_TYPES).notNull(),
    actorUserId: idColumn('actor_user_id'),
    actorKeyId: idColumn('actor_key_id'),
    action: varchar('action', { length: 64 }).notNull(),
    targetType: varchar('target_type', { length: 32 }).notNull(),
    targetId: varchar('target_id', { length: 64 }),
    counts: jsonColumn<Record<string, number>>('counts'),
    requestId: varchar('request_id', { length: 128 }).notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    index('audit_events_org').on(t.orgId, t.id),
    index('audit_events_org_action').on(t.orgId, t.action, t.id),
    index('audit_events_org_actor').on(t.orgId, t.actorUserId, t.id),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;
