import { and, asc, desc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { hasErrorCode } from '../errors';
import {
  workstreamEvents,
  workstreams,
  type EventKind,
  type EventMetadata,
  type EventRole,
  type Harness,
  type ToolOutcome,
  type WorkstreamRow,
} from '../schema';
import type { OwnerScope } from '../scope';
import { againstTerms, indexTerms, queryWords, searchTag } from '../search/terms';

/** One event ready for the ledger (sanitized, adapted, hashed). */
export interface EventDraft {
  eventId: string;
  kind: EventKind;
  role: EventRole;
  event: string;
  lifecycleOnly: boolean;
  toolUseId: string | null;
  toolName: string | null;
  outcome: ToolOutcome | null;
  content: string;
  occurredAt: Date;
  receivedAt: Date;
  metadata: EventMetadata;
  contentSha256: string;
  payloadSha256: string;
  /** Canonical sanitized payload JSON. */
  payload: string;
  payloadBytes: number;
  endsSession: boolean;
}

export interface SessionRef {
  harness: Harness;
  nativeSessionId: string;
  cwd?: string;
  transcriptPath?: string;
  model?: string;
}

export interface AppendedEvent {
  eventId: string;
  sequence: number;
  duplicate: boolean;
}

export interface AppendOutcome {
  workstreamId: string;
  events: AppendedEvent[];
  /** Whether the workstream now has enough pending to seal a segment at once. */
  sealNow: boolean;
}

/** Segment thresholds (also used by the sealer). */
export const SEGMENT_MAX_EVENTS = 256;
export const SEGMENT_MAX_BYTES = 1024 * 1024;

const cut = (value: string | undefined, max: number) => (value === undefined ? null : value.slice(0, max));

async function lockWorkstream(ex: Executor, scope: OwnerScope, session: SessionRef): Promise<WorkstreamRow | undefined> {
  const [row] = await ex
    .select()
    .from(workstreams)
    .where(
      and(
        eq(workstreams.orgId, scope.orgId),
        eq(workstreams.userId, scope.userId),
        eq(workstreams.harness, session.harness),
        eq(workstreams.nativeSessionId, session.nativeSessionId),
      ),
    )
    .for('update');
  return row;
}

/**
 * Appends events of one harness session in one transaction: creates the workstream on
 * first sight, assigns gapless sequences under its row lock (so concurrent requests in
 * several processes serialise per workstream), and skips event ids it already holds —
 * a retried delivery answers with the original sequence.
 */
export async function appendWorkstreamEvents(
  db: Database,
  scope: OwnerScope,
  session: SessionRef,
  drafts: readonly EventDraft[],
  options: { newWorkstreamId: string; now: Date },
): Promise<AppendOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => appendInTransaction(tx, scope, session, drafts, options), {
        isolationLevel: 'read committed',
      });
    } catch (error) {
      // Two first events of a brand-new session can deadlock on its creation; retry.
      if (attempt < 4 && hasErrorCode(error, 'ER_LOCK_DEADLOCK')) continue;
      throw error;
    }
  }
}

async function appendInTransaction(
  tx: Executor,
  scope: OwnerScope,
  session: SessionRef,
  drafts: readonly EventDraft[],
  options: { newWorkstreamId: string; now: Date },
): Promise<AppendOutcome> {
  let workstream = await lockWorkstream(tx, scope, session);
  if (!workstream) {
    await tx
      .insert(workstreams)
      .values({
        id: options.newWorkstreamId,
        orgId: scope.orgId,
        userId: scope.userId,
        harness: session.harness,
        nativeSessionId: session.nativeSessionId,
        cwd: cut(session.cwd, 1024),
        transcriptPath: cut(session.transcriptPath, 1024),
        model: cut(session.model, 128),
        createdAt: options.now,
        lastEventAt: options.now,
      })
      .onDuplicateKeyUpdate({ set: { id: sql`id` } });
    workstream = await lockWorkstream(tx, scope, session);
    if (!workstream) throw new Error('workstream vanished while being created');
  }

  const known = new Map<string, number>();
  const ids = [...new Set(drafts.map((draft) => draft.eventId))];
  if (ids.length > 0) {
    const existing = await tx
      .select({ eventId: workstreamEvents.eventId, sequence: workstreamEvents.sequence })
      .from(workstreamEvents)
      .where(and(eq(workstreamEvents.workstreamId, workstream.id), inArray(workstreamEvents.eventId, ids)));
    for (const row of existing) known.set(row.eventId, row.sequence);
  }

  const tag = searchTag('u', scope.userId);
  let sequence = workstream.lastSequence;
  const results: AppendedEvent[] = [];
  const rows: (typeof workstreamEvents.$inferInsert)[] = [];
  let bytes = 0;
  let endsSession = false;
  let lastActivity = workstream.lastEventAt;
  for (const draft of drafts) {
    const original = known.get(draft.eventId);
    if (original !== undefined) {
      results.push({ eventId: draft.eventId, sequence: original, duplicate: true });
      continue;
    }
    sequence += 1;
    known.set(draft.eventId, sequence);
    results.push({ eventId: draft.eventId, sequence, duplicate: false });
    const { endsSession: ends, ...columns } = draft;
    rows.push({
      ...columns,
      workstreamId: workstream.id,
      sequence,
      orgId: scope.orgId,
      userId: scope.userId,
      harness: session.harness,
      searchTerms: indexTerms(tag, draft.content),
    });
    bytes += draft.payloadBytes;
    endsSession ||= ends;
    if (draft.receivedAt > lastActivity) lastActivity = draft.receivedAt;
  }

  if (rows.length === 0) return { workstreamId: workstream.id, events: results, sealNow: false };
  await tx.insert(workstreamEvents).values(rows);
  const pendingCount = workstream.pendingCount + rows.length;
  const pendingBytes = workstream.pendingBytes + bytes;
  const sealNow = endsSession || pendingCount >= SEGMENT_MAX_EVENTS || pendingBytes >= SEGMENT_MAX_BYTES;
  await tx
    .update(workstreams)
    .set({
      lastSequence: sequence,
      lastEventAt: lastActivity,
      pendingCount,
      pendingBytes,
      pendingSince: workstream.pendingSince ?? rows[0]!.receivedAt,
      sealRequested: workstream.sealRequested || endsSession,
      ...(endsSession ? { endedAt: lastActivity } : {}),
      ...(workstream.cwd === null && session.cwd ? { cwd: cut(session.cwd, 1024) } : {}),
      ...(workstream.transcriptPath === null && session.transcriptPath ? { transcriptPath: cut(session.transcriptPath, 1024) } : {}),
      ...(workstream.model === null && session.model ? { model: cut(session.model, 128) } : {}),
    })
    .where(eq(workstreams.id, workstream.id));
  return { workstreamId: workstream.id, events: results, sealNow };
}

// ——— reads (owner-scoped) ———

function ownedWorkstream(scope: OwnerScope): SQL {
  return and(eq(workstreams.orgId, scope.orgId), eq(workstreams.userId, scope.userId)) as SQL;
}

function ownedEvent(scope: OwnerScope): SQL {
  return and(eq(workstreamEvents.orgId, scope.orgId), eq(workstreamEvents.userId, scope.userId)) as SQL;
}

export async function findWorkstream(ex: Executor, scope: OwnerScope, id: string): Promise<WorkstreamRow | null> {
  const [row] = await ex
    .select()
    .from(workstreams)
    .where(and(eq(workstreams.id, id), ownedWorkstream(scope)));
  return row ?? null;
}

export interface WorkstreamCursor {
  lastEventAt: Date;
  id: string;
}

/** Newest activity first. */
export async function listWorkstreams(
  ex: Executor,
  scope: OwnerScope,
  options: { limit: number; after?: WorkstreamCursor; harness?: Harness },
): Promise<{ rows: WorkstreamRow[]; hasMore: boolean }> {
  const after = options.after;
  const rows = await ex
    .select()
    .from(workstreams)
    .where(
      and(
        ownedWorkstream(scope),
        options.harness ? eq(workstreams.harness, options.harness) : undefined,
        after
          ? or(lt(workstreams.lastEventAt, after.lastEventAt), and(eq(workstreams.lastEventAt, after.lastEventAt), lt(workstreams.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(workstreams.lastEventAt), desc(workstreams.id))
    .limit(options.limit + 1);
  return { rows: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}

/** The columns of an event a reader sees (no payload, no search terms). */
const eventColumns = {
  workstreamId: workstreamEvents.workstreamId,
  sequence: workstreamEvents.sequence,
  eventId: workstreamEvents.eventId,
  harness: workstreamEvents.harness,
  kind: workstreamEvents.kind,
  role: workstreamEvents.role,
  event: workstreamEvents.event,
  lifecycleOnly: workstreamEvents.lifecycleOnly,
  toolUseId: workstreamEvents.toolUseId,
  toolName: workstreamEvents.toolName,
  outcome: workstreamEvents.outcome,
  content: workstreamEvents.content,
  occurredAt: workstreamEvents.occurredAt,
  receivedAt: workstreamEvents.receivedAt,
  metadata: workstreamEvents.metadata,
  contentSha256: workstreamEvents.contentSha256,
  payloadSha256: workstreamEvents.payloadSha256,
  segmentKey: workstreamEvents.segmentKey,
};
export type LedgerEvent = { [K in keyof typeof eventColumns]: (typeof workstreamEvents.$inferSelect)[K] };

export interface EventFilter {
  kinds?: EventKind[];
  event?: string;
  order: 'asc' | 'desc';
  /** Sequence cursor: events after it in the chosen order. */
  after?: number;
  limit: number;
  includeLifecycle: boolean;
}

/** A workstream's events in sequence order (the workstream must already be known visible). */
export async function listWorkstreamEvents(
  ex: Executor,
  scope: OwnerScope,
  workstreamId: string,
  filter: EventFilter,
): Promise<{ rows: LedgerEvent[]; hasMore: boolean }> {
  const rows = await ex
    .select(eventColumns)
    .from(workstreamEvents)
    .where(
      and(
        eq(workstreamEvents.workstreamId, workstreamId),
        ownedEvent(scope),
        filter.kinds && filter.kinds.length > 0 ? inArray(workstreamEvents.kind, filter.kinds) : undefined,
        filter.event ? eq(workstreamEvents.event, filter.event) : undefined,
        filter.includeLifecycle ? undefined : eq(workstreamEvents.lifecycleOnly, false),
        filter.after === undefined
          ? undefined
          : filter.order === 'asc'
            ? gt(workstreamEvents.sequence, filter.after)
            : lt(workstreamEvents.sequence, filter.after),
      ),
    )
    .orderBy(filter.order === 'asc' ? asc(workstreamEvents.sequence) : desc(workstreamEvents.sequence))
    .limit(filter.limit + 1);
  return { rows: rows.slice(0, filter.limit), hasMore: rows.length > filter.limit };
}

export async function findWorkstreamEvent(
  ex: Executor,
  scope: OwnerScope,
  workstreamId: string,
  sequence: number,
): Promise<LedgerEvent | null> {
  const [row] = await ex
    .select(eventColumns)
    .from(workstreamEvents)
    .where(and(eq(workstreamEvents.workstreamId, workstreamId), eq(workstreamEvents.sequence, sequence), ownedEvent(scope)));
  return row ?? null;
}

export interface ScoredLedgerEvent extends LedgerEvent {
  score: number;
}

/** FULLTEXT search over the caller's events, same query rules as memory search. */
export async function searchWorkstreamEvents(
  ex: Executor,
  scope: OwnerScope,
  options: { query: string; workstreamId?: string; kinds?: EventKind[]; limit: number },
): Promise<ScoredLedgerEvent[]> {
  const words = queryWords(options.query);
  if (words.length === 0) return [];
  const match = sql<number>`MATCH(${workstreamEvents.searchTerms}) AGAINST(${againstTerms([searchTag('u', scope.userId)], words)} IN NATURAL LANGUAGE MODE)`;
  const rows = await ex
    .select({ ...eventColumns, score: match.as('score') })
    .from(workstreamEvents)
    .where(
      and(
        match,
        ownedEvent(scope),
        options.workstreamId ? eq(workstreamEvents.workstreamId, options.workstreamId) : undefined,
        options.kinds && options.kinds.length > 0 ? inArray(workstreamEvents.kind, options.kinds) : undefined,
      ),
    )
    .orderBy(desc(sql`score`), desc(workstreamEvents.receivedAt), desc(workstreamEvents.sequence))
    .limit(options.limit);
  return rows.map((row) => ({ ...row, score: Number(row.score) }));
}

/**
 * Tool events grouped into actions: a call and its result share a tool_use_id; an event
 * without one is an action of its own. Actions come in the order of their first event;
 * `after` is the first sequence of the previous page's last action.
 */
export async function listToolActions(
  ex: Executor,
  scope: OwnerScope,
  workstreamId: string,
  options: { after?: number; limit: number },
): Promise<{ groups: LedgerEvent[][]; hasMore: boolean }> {
  const actionKey = sql`COALESCE(${workstreamEvents.toolUseId}, CONCAT('#', ${workstreamEvents.sequence}))`;
  const isTool = inArray(workstreamEvents.kind, ['tool_call', 'tool_result']);
  const firsts = await ex
    .select({ key: sql<string>`${actionKey}`.as('action_key'), first: sql<number>`MIN(${workstreamEvents.sequence})`.as('first_sequence') })
    .from(workstreamEvents)
    .where(and(eq(workstreamEvents.workstreamId, workstreamId), ownedEvent(scope), isTool))
    .groupBy(sql`action_key`)
    .having(options.after === undefined ? undefined : sql`first_sequence > ${options.after}`)
    .orderBy(sql`first_sequence`)
    .limit(options.limit + 1);
  const page = firsts.slice(0, options.limit);
  if (page.length === 0) return { groups: [], hasMore: false };
  const toolIds = page.map((row) => row.key).filter((key) => !key.startsWith('#'));
  const loneSequences = page.filter((row) => row.key.startsWith('#')).map((row) => Number(row.first));
  const events = await ex
    .select(eventColumns)
    .from(workstreamEvents)
    .where(
      and(
        eq(workstreamEvents.workstreamId, workstreamId),
        ownedEvent(scope),
        isTool,
        or(
          toolIds.length > 0 ? inArray(workstreamEvents.toolUseId, toolIds) : undefined,
          loneSequences.length > 0 ? inArray(workstreamEvents.sequence, loneSequences) : undefined,
        ),
      ),
    )
    .orderBy(asc(workstreamEvents.sequence));
  const byKey = new Map<string, LedgerEvent[]>();
  for (const event of events) {
    const key = event.toolUseId ?? `#${event.sequence}`;
    byKey.set(key, [...(byKey.get(key) ?? []), event]);
  }
  return { groups: page.map((row) => byKey.get(row.key) ?? []), hasMore: firsts.length > options.limit };
}
