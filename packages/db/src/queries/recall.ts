import { and, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/mysql-core';
import type { Executor } from '../driver';
import { preparedOn } from '../driver';
import { MEMORY_INDEXES, memory, workstreamEvents, workstreams, type EventRole, type Harness, type MemoryScope } from '../schema';
import type { OwnerScope } from '../scope';

/** What a session's context already holds of recall: its workstream (if it exists yet) and the first line of each recall event since its last compaction. */
export interface SessionRecalls {
  workstreamId: string | null;
  /** The first line of each recall event's content, oldest first; it lists the memory ids shown. */
  heads: string[];
}

const OWNER = { orgId: sql.placeholder('orgId'), userId: sql.placeholder('userId') };

/**
 * The recall events of one harness session of the caller since its last compaction (a
 * compacted context no longer holds what was recalled before), in one statement: the
 * session's row by its unique key, its last compaction and its recall events by
 * (workstream_id, kind).
 */
export async function findSessionRecalls(
  ex: Executor,
  scope: OwnerScope,
  session: { harness: Harness; nativeSessionId: string },
): Promise<SessionRecalls> {
  const query = preparedOn(ex, 'sessionRecalls', (on) =>
    on
      .select({ workstreamId: workstreams.id, head: sql<string | null>`SUBSTRING_INDEX(${workstreamEvents.content}, '\n', 1)` })
      .from(workstreams)
      .leftJoin(
        workstreamEvents,
        and(
          eq(workstreamEvents.workstreamId, workstreams.id),
          eq(workstreamEvents.kind, 'recall'),
          eq(workstreamEvents.orgId, OWNER.orgId),
          sql`${workstreamEvents.sequence} > COALESCE((SELECT MAX(compacted.sequence) FROM ${workstreamEvents} AS compacted
            WHERE compacted.org_id = ${workstreams.orgId} AND compacted.workstream_id = ${workstreams.id} AND compacted.kind = 'compaction'), 0)`,
        ),
      )
      .where(
        and(
          eq(workstreams.orgId, OWNER.orgId),
          eq(workstreams.userId, OWNER.userId),
          eq(workstreams.harness, sql.placeholder('harness')),
          eq(workstreams.nativeSessionId, sql.placeholder('session')),
        ),
      )
      .orderBy(workstreamEvents.sequence),
  );
  const rows = await query.execute({ orgId: scope.orgId, userId: scope.userId, harness: session.harness, session: session.nativeSessionId });
  return { workstreamId: rows[0]?.workstreamId ?? null, heads: rows.flatMap((row) => (row.head === null ? [] : [row.head])) };
}

export interface PreviousSession {
  workstreamId: string;
  lastEventAt: Date;
}

/**
 * The caller's most recently active sessions of `project` (workstreams.project), other than
 * the current one, newest first: read backwards along workstreams_owner_project
 * (org_id, user_id, project, last_event_at, id), stopping at `limit`.
 */
export async function findPreviousSessions(
  ex: Executor,
  scope: OwnerScope,
  options: { project: string; except: { harness: Harness; nativeSessionId: string }; limit: number },
): Promise<PreviousSession[]> {
  const query = preparedOn(ex, 'previousSessions', (on) =>
    on
      .select({ workstreamId: workstreams.id, lastEventAt: workstreams.lastEventAt })
      .from(workstreams)
      .where(
        and(
          eq(workstreams.orgId, OWNER.orgId),
          eq(workstreams.userId, OWNER.userId),
          eq(workstreams.project, sql.placeholder('project')),
          or(ne(workstreams.harness, sql.placeholder('harness')), ne(workstreams.nativeSessionId, sql.placeholder('session'))),
        ),
      )
      .orderBy(desc(workstreams.lastEventAt), desc(workstreams.id))
      .limit(sql.placeholder('limit')),
  );
  return query.execute({
    orgId: scope.orgId,
    userId: scope.userId,
    project: options.project,
    harness: options.except.harness,
    session: options.except.nativeSessionId,
    limit: options.limit,
  });
}

export interface LastMessage {
  role: Extract<EventRole, 'user' | 'assistant'>;
  /** The message's first `maxChars` characters (the ledger keeps it sanitized). */
  text: string;
  truncated: boolean;
  occurredAt: Date;
}

/**
 * A session's last user prompt and last assistant reply (each its first `maxChars`
 * characters), each read backwards along (workstream_id, kind, sequence): two one-row reads.
 */
export async function findLastExchange(ex: Executor, scope: OwnerScope, workstreamId: string, maxChars: number): Promise<LastMessage[]> {
  const last = (role: 'user' | 'assistant') =>
    preparedOn(ex, `lastMessage:${role}`, (on) =>
      on
        .select({
          text: sql<string>`SUBSTRING(${workstreamEvents.content}, 1, ${sql.placeholder('chars')})`,
          length: sql<number>`CHAR_LENGTH(${workstreamEvents.content})`.mapWith(Number),
          occurredAt: workstreamEvents.occurredAt,
        })
        .from(workstreamEvents)
        .where(
          and(
            eq(workstreamEvents.workstreamId, sql.placeholder('workstreamId')),
            eq(workstreamEvents.orgId, OWNER.orgId),
            eq(workstreamEvents.userId, OWNER.userId),
            eq(workstreamEvents.kind, 'message'),
            eq(workstreamEvents.role, role),
            ne(workstreamEvents.content, ''),
          ),
        )
        .orderBy(desc(workstreamEvents.sequence))
        .limit(1),
    )
      .execute({ workstreamId, orgId: scope.orgId, userId: scope.userId, chars: maxChars })
      .then((rows) => rows.map((row): LastMessage => ({ role, text: row.text, truncated: row.length > maxChars, occurredAt: row.occurredAt })));
  return (await Promise.all([last('user'), last('assistant')])).flat();
}

export interface PinnedMemory {
  id: string;
  scope: MemoryScope;
  content: string;
}

/**
 * The pinned memories the caller sees — their own and the org's shared ones — that are
 * current (not superseded) and not expired at `now`: at most `limit`, the most recently
 * changed first. Each scope is read along memory_pinned (org_id, pinned, scope, user_id),
 * named in a hint, so only pinned rows are read, however many the owner holds.
 */
export async function findPinnedMemories(ex: Executor, scope: OwnerScope, options: { now: Date; limit: number }): Promise<PinnedMemory[]> {
  const branch = (on: Executor, which: 'user' | 'org') =>
    on
      .select({ id: memory.id, scope: memory.scope, content: memory.content, updatedAt: memory.updatedAt })
      .from(memory, { forceIndex: MEMORY_INDEXES.pinned })
      .where(
        and(
          eq(memory.orgId, OWNER.orgId),
          eq(memory.pinned, true),
          eq(memory.scope, which),
          which === 'user' ? eq(memory.userId, OWNER.userId) : undefined,
          isNull(memory.supersededBy),
          or(isNull(memory.expiresAt), gt(memory.expiresAt, sql.placeholder('now'))),
        ),
      )
      .orderBy(desc(memory.updatedAt), desc(memory.id))
      .limit(sql.placeholder('limit'));
  const rows = await preparedOn(ex, 'pinnedMemories', (on) =>
    union(branch(on, 'user'), branch(on, 'org'))
      .orderBy(sql`\`updated_at\` desc`, sql`\`id\` desc`)
      .limit(sql.placeholder('limit')),
  ).execute({ orgId: scope.orgId, userId: scope.userId, now: options.now, limit: options.limit });
  return rows.map(({ id, scope: which, content }) => ({ id, scope: which, content }));
}
