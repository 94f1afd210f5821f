import { insertAuditEvent, listAuditEvents, newId, type AuditEventRow, type Executor, type OrgScope } from '@memory-bank/db';
import { requireAdmin, type Principal } from '../auth/principal';
import { beforeIdCursor } from './cursor';
import type { Clock } from '../clock';
import type { ServiceDeps } from './deps';

/** Who acted: a signed-in user (by key or OIDC token) or the operator (token or CLI). */
export type AuditActor =
  | { type: 'user'; userId: string; keyId: string | null; requestId: string }
  | { type: 'operator'; requestId: string };

export function actorOf(principal: Principal): AuditActor {
  if (principal.via === 'operator') return operatorActor(principal.requestId);
  return { type: 'user', userId: principal.scope.userId, keyId: principal.keyId, requestId: principal.requestId };
}

export function operatorActor(requestId: string): AuditActor {
  return { type: 'operator', requestId };
}

/** The closed set of audited actions. */
export type AuditAction =
  | 'org.create'
  | 'org.delete'
  | 'org.update'
  | 'member.add'
  | 'member.remove'
  | 'member.purge'
  | 'member.role'
  | 'memory.delete'
  | 'memory.export'
  | 'memory.import'
  | 'api_key.create'
  | 'api_key.revoke'
  | 'oauth.grant'
  | 'oauth.revoke';

export interface AuditEntry {
  action: AuditAction;
  targetType: 'org' | 'user' | 'memory' | 'api_key' | 'oauth_grant';
  targetId: string | null;
  /** How many of what the action touched, e.g. { memories: 12, contexts: 30 }. Never content. */
  counts?: Record<string, number>;
}

/** Writes an audit event in the caller's transaction. */
export async function recordAudit(ex: Executor, clock: Clock, org: OrgScope, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const now = clock.now();
  await insertAuditEvent(ex, org, {
    id: newId('auditEvent', now),
    actorType: actor.type,
    actorUserId: actor.type === 'user' ? actor.userId : null,
    actorKeyId: actor.type === 'user' ? actor.keyId : null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    counts: entry.counts ?? null,
    requestId: actor.requestId,
    createdAt: now,
  });
}

export type AuditService = ReturnType<typeof createAuditService>;

export function createAuditService({ db }: ServiceDeps) {
  return {
    /** The org's audit trail, newest first. Admins and owners only. */
    async list(
      principal: Principal,
      options: { limit: number; cursor?: string; action?: string; actor?: string; since?: Date; until?: Date },
    ): Promise<{ events: AuditEventRow[]; nextCursor: string | null }> {
      requireAdmin(principal, 'read the audit trail');
      const page = await listAuditEvents(db, principal.scope, {
        limit: options.limit,
        ...(options.cursor ? { beforeId: beforeIdCursor.decode(options.cursor, 'auditEvent') } : {}),
        ...(options.action ? { action: options.action } : {}),
        ...(options.actor ? { actorUserId: options.actor } : {}),
        ...(options.since ? { since: options.since } : {}),
        ...(options.until ? { until: options.until } : {}),
      });
      const last = page.rows.at(-1);
      return { events: page.rows, nextCursor: page.hasMore && last ? beforeIdCursor.encode(last.id) : null };
    },
  };
}
