import { and, asc, desc, eq, gt, inArray, isNotNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../driver';
import { claimColumns, segmentEventColumns, type SegmentClaim, type SegmentEvent } from '../archive-layout';
import { archiveSegments, workstreamEvents, workstreams, type EventKind, type Harness, type WorkstreamRow } from '../schema';
import type { OwnerScope } from '../scope';
import { againstTerms, queryWords, searchTag } from '../search/terms';

/** Reading a workstream's ledger, always as its owner. */

function ownedWorkstream(scope: OwnerScope): SQL {
  return and(eq(workstreams.orgId, scope.orgId), eq(workstreams.userId, scope.userId)) as SQL;
}

function ownedEvent(scope: OwnerScope): SQL {
  return and(eq(workstreamEvents.orgId, scope.orgId), eq(workstreamEvents.userId, scope.userId)) as SQL;
}

/** The events of one workstream of the owner. */
function ownedEventsOf(scope: OwnerScope, workstreamId: string): SQL {
  return and(eq(workstreamEvents.workstreamId, workstreamId), ownedEvent(scope)) as SQL;
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
        ownedEventsOf(scope, workstreamId),
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
    .where(and(ownedEventsOf(scope, workstreamId), eq(workstreamEvents.sequence, sequence)));
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
    .where(and(ownedEventsOf(scope, workstreamId), isTool))
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
        ownedEventsOf(scope, workstreamId),
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

// ——— the raw download: a workstream's stored segments and the events not in one yet ———

/** The owner's workstream's segments that are in object storage, in sequence order. */
export async function storedSegments(ex: Executor, scope: OwnerScope, workstreamId: string): Promise<SegmentClaim[]> {
  return ex
    .select(claimColumns)
    .from(archiveSegments)
    .innerJoin(workstreams, and(eq(workstreams.id, archiveSegments.workstreamId), ownedWorkstream(scope)))
    .where(and(eq(archiveSegments.orgId, scope.orgId), eq(archiveSegments.workstreamId, workstreamId), isNotNull(archiveSegments.uploadedAt)))
    .orderBy(asc(archiveSegments.firstSequence));
}

/** The owner's events whose payload is still in the ledger (not yet in a stored segment), by sequence, a page at a time. */
export async function unarchivedEvents(
  ex: Executor,
  scope: OwnerScope,
  workstreamId: string,
  range: { after: number; through: number; limit: number },
): Promise<(SegmentEvent & { payload: string })[]> {
  const rows = await ex
    .select(segmentEventColumns)
    .from(workstreamEvents)
    .where(
      and(
        ownedEventsOf(scope, workstreamId),
        gt(workstreamEvents.sequence, range.after),
        lte(workstreamEvents.sequence, range.through),
        isNotNull(workstreamEvents.payload),
      ),
    )
    .orderBy(asc(workstreamEvents.sequence))
    .limit(range.limit);
  return rows as (SegmentEvent & { payload: string })[];
}
