import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { Executor } from '../driver';
import { auditEvents, type AuditEventRow } from '../schema';
import type { OrgScope } from '../scope';

export type NewAuditEvent = Omit<AuditEventRow, 'orgId' | 'counts'> & { counts: Record<string, number> | null };

/** Records an audit event of the org (call inside the transaction of the action it records). */
export async function insertAuditEvent(ex: Executor, org: OrgScope, event: NewAuditEvent): Promise<void> {
  await ex.insert(auditEvents).values({ ...event, orgId: org.orgId });
}

/**
 * An org's audit trail, newest first; `since` inclusive, `until` exclusive. The time range
 * has no index of its own: it is read along (org, id) from the newest, so an `until` far in
 * the past first steps over the org's newer events (an org's trail is small: admin actions).
 */
export async function listAuditEvents(
  ex: Executor,
  org: OrgScope,
  options: { limit: number; beforeId?: string; action?: string; actorUserId?: string; since?: Date; until?: Date },
): Promise<{ rows: AuditEventRow[]; hasMore: boolean }> {
  const rows = await ex
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.orgId, org.orgId),
        options.action ? eq(auditEvents.action, options.action) : undefined,
        options.actorUserId ? eq(auditEvents.actorUserId, options.actorUserId) : undefined,
        options.beforeId ? lt(auditEvents.id, options.beforeId) : undefined,
        options.since ? gte(auditEvents.createdAt, options.since) : undefined,
        options.until ? lt(auditEvents.createdAt, options.until) : undefined,
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(options.limit + 1);
  return { rows: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}
