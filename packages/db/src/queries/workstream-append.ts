import { and, eq, getTableColumns, inArray, or, sql, type Placeholder } from 'drizzle-orm';
import type { MySqlInsertValue } from 'drizzle-orm/mysql-core';
import { hasErrorCode, isDuplicateKey } from '../errors';
import { inTransaction, padded, preparedOn, sendStatement, type Database, type Executor } from '../driver';
import {
  HARNESSES,
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
import { indexTerms, searchTag, type SearchTag } from '../search/terms';

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
  /** The project key (≤ PROJECT_KEY_MAX characters; the ingest service makes it). */
  project?: string;
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

/** A placeholder in a SET clause (drizzle types accept only SQL there); mysql2 binds the value. */
const bound = (name: string) => sql`${sql.placeholder(name)}`;

/** The columns an appended event row sets (the prepared single-row insert binds each). */
const EVENT_COLUMNS = [
  'workstreamId', 'sequence', 'eventId', 'orgId', 'userId', 'harness', 'kind', 'role', 'event', 'lifecycleOnly', 'toolUseId',
  'toolName', 'outcome', 'content', 'searchTerms', 'occurredAt', 'receivedAt', 'metadata', 'contentSha256', 'payloadSha256',
  'payloadBytes', 'payload', 'segmentKey',
] as const satisfies readonly (keyof typeof workstreamEvents.$inferInsert)[];

/** A row of named placeholders: `name(column)` for each of `columns`. */
function placeholderRow<C extends string>(columns: readonly C[], name: (column: C) => string): Record<C, Placeholder> {
  const row = {} as Record<C, Placeholder>;
  for (const column of columns) row[column] = sql.placeholder(name(column));
  return row;
}

/** Statement shapes for multi-session locks and duplicate checks: lists are padded up to one of these sizes. */
const LIST_SIZES = [1, 4, 16, 64, 256];

/** One session's events, in order. */
export interface SessionEvents {
  session: SessionRef;
  drafts: readonly EventDraft[];
}

/**
 * The key two sessions share exactly when the database holds them as one workstream:
 * native session ids compare byte for byte (utf8mb4_bin), trailing spaces aside (PAD SPACE).
 */
export function sessionKey(session: Pick<SessionRef, 'harness' | 'nativeSessionId'>): string {
  return `${session.harness}\u0000${session.nativeSessionId.replace(/ +$/, '')}`;
}

/**
 * Appends events of one or more harness sessions in one transaction: creates workstreams
 * on first sight, assigns gapless sequences under their row locks (so concurrent requests
 * in several processes serialise per workstream) and skips event ids already held — a
 * retried delivery answers with the original sequence. `groups` must have distinct
 * session keys (see sessionKey); outcomes come back in the same order.
 */
export async function appendWorkstreamEvents(
  db: Database,
  scope: OwnerScope,
  groups: readonly SessionEvents[],
  options: { newWorkstreamId: () => string; now: Date },
): Promise<AppendOutcome[]> {
  if (new Set(groups.map((group) => sessionKey(group.session))).size !== groups.length) {
    throw new Error('appendWorkstreamEvents: two groups name the same session');
  }
  const sessions = groups.map((group) => group.session);
  // Deliveries the ledger already holds are rare (a retry): appends first assume none and
  // let the unique event id catch one, then run again with the look-up (see appendMany).
  let lookUpKnown = false;
  for (let attempt = 1; ; attempt++) {
    try {
      const outcome = await inTransaction(db, async (tx) => {
        const rows = new Map((await lockWorkstreams(tx, scope, sessions)).map((row) => [sessionKey(row), row]));
        const missing = sessions.filter((session) => !rows.has(sessionKey(session)));
        if (missing.length > 0) return { missing };
        const locked = sessions.map((session) => rows.get(sessionKey(session))!);
        if (groups.length === 1 && groups[0]!.drafts.length === 1) return { appended: [await appendOne(tx, scope, sessions[0]!, locked[0]!, groups[0]!.drafts[0]!)] };
        return { appended: await appendMany(tx, scope, groups, locked, lookUpKnown) };
      });
      if (outcome.appended) return outcome.appended;
      // New sessions: created on their own, then the append starts again (a session deleted
      // meanwhile is simply created again).
      if (attempt < APPEND_ATTEMPTS) {
        await createWorkstreams(db, scope, outcome.missing, options);
        continue;
      }
      throw new Error('workstreams vanished while being created');
    } catch (error) {
      if (!lookUpKnown && isKnownEvent(error)) {
        lookUpKnown = true;
        continue;
      }
      if (attempt < APPEND_ATTEMPTS && hasErrorCode(error, 'ER_LOCK_DEADLOCK')) continue;
      throw error;
    }
  }
}

/** Tries of one append: creating its sessions, a retry with the look-up of known events, deadlocks. */
const APPEND_ATTEMPTS = 5;

/** The error of an INSERT that met an event id its workstream already holds. */
const isKnownEvent = (error: unknown) => isDuplicateKey(error, 'workstream_events_event_id');

/**
 * Creates the workstreams of new sessions, committed at once and outside any append: two
 * requests creating the same session inside their transactions would both wait on the
 * other's insert and deadlock (InnoDB's duplicate-key S lock, then the X lock to update).
 * INSERT IGNORE in index order only ever waits for the other's insert to commit. A session
 * whose first append then fails stays an empty workstream, filled by the retry.
 */
async function createWorkstreams(db: Database, scope: OwnerScope, sessions: readonly SessionRef[], options: { newWorkstreamId: () => string; now: Date }) {
  // The unique index's order: harness by its ENUM position, then the session id's bytes.
  const ordered = [...sessions].sort(
    (a, b) => HARNESSES.indexOf(a.harness) - HARNESSES.indexOf(b.harness) || Buffer.compare(Buffer.from(a.nativeSessionId), Buffer.from(b.nativeSessionId)),
  );
  await db
    .insert(workstreams)
    .ignore()
    .values(
      ordered.map((session) => ({
        id: options.newWorkstreamId(),
        orgId: scope.orgId,
        userId: scope.userId,
        harness: session.harness,
        nativeSessionId: session.nativeSessionId,
        cwd: cut(session.cwd, 1024),
        project: session.project ?? null,
        transcriptPath: cut(session.transcriptPath, 1024),
        model: cut(session.model, 128),
        createdAt: options.now,
        lastEventAt: options.now,
      })),
    );
}

/**
 * Workstream ids of sessions this process has appended to, by owner and session (at most
 * WORKSTREAM_IDS_REMEMBERED, oldest forgotten first). Only a hint: the lock reads the rows
 * by these ids within the owner's scope and checks each is still that session's.
 */
const workstreamIds = new Map<string, string>();
const WORKSTREAM_IDS_REMEMBERED = 10_000;
const idKey = (scope: OwnerScope, session: Pick<SessionRef, 'harness' | 'nativeSessionId'>) => `${scope.orgId}\u0000${scope.userId}\u0000${sessionKey(session)}`;

function rememberIds(scope: OwnerScope, rows: readonly WorkstreamRow[]): void {
  for (const row of rows) {
    const key = idKey(scope, row);
    workstreamIds.delete(key);
    workstreamIds.set(key, row.id);
  }
  for (const key of workstreamIds.keys()) {
    if (workstreamIds.size <= WORKSTREAM_IDS_REMEMBERED) break;
    workstreamIds.delete(key);
  }
}

/**
 * Locks the workstreams of `sessions` that exist. One session: one locking read by its
 * unique key. Several: locked by primary key in id order — a locking read by any other
 * path may scan, and so wait on, rows of other sessions (a sealer's, another batch's) in an
 * order that differs between transactions. Their ids come from this process's memory when
 * it has appended to all of them before (one statement), else are read first, without locks.
 */
async function lockWorkstreams(ex: Executor, scope: OwnerScope, sessions: readonly SessionRef[]): Promise<WorkstreamRow[]> {
  const list = padded(sessions, LIST_SIZES);
  const bySession = () =>
    and(
      eq(workstreams.orgId, sql.placeholder('orgId')),
      eq(workstreams.userId, sql.placeholder('userId')),
      or(...list.map((_, i) => and(eq(workstreams.harness, sql.placeholder(`h${i}`)), eq(workstreams.nativeSessionId, sql.placeholder(`s${i}`))))),
    );
  const params: Record<string, unknown> = { orgId: scope.orgId, userId: scope.userId };
  list.forEach((session, i) => {
    params[`h${i}`] = session.harness;
    params[`s${i}`] = session.nativeSessionId;
  });
  if (sessions.length === 1) {
    return preparedOn(ex, 'lockWorkstream', (on) => on.select().from(workstreams).where(bySession()).for('update')).execute(params);
  }
  const remembered = sessions.map((session) => workstreamIds.get(idKey(scope, session)));
  if (remembered.every((id) => id !== undefined)) {
    const rows = await lockByIds(ex, scope, remembered);
    const wanted = new Set(sessions.map(sessionKey));
    // Each row still its session's (a deleted session's id is simply gone): else read them.
    if (rows.length === sessions.length && rows.every((row) => row.userId === scope.userId && wanted.has(sessionKey(row)))) return rows;
    for (const session of sessions) workstreamIds.delete(idKey(scope, session));
  }
  const found = await preparedOn(ex, `findWorkstreams:${list.length}`, (on) => on.select({ id: workstreams.id }).from(workstreams).where(bySession())).execute(params);
  if (found.length === 0) return [];
  const rows = await lockByIds(ex, scope, found.map((row) => row.id));
  rememberIds(scope, rows);
  return rows;
}

/** Locks workstreams of the scope's org by id, in id order. */
function lockByIds(ex: Executor, scope: OwnerScope, unsorted: readonly string[]): Promise<WorkstreamRow[]> {
  const ids = padded([...unsorted].sort(), LIST_SIZES);
  const lock = preparedOn(ex, `lockWorkstreamIds:${ids.length}`, (on) =>
    on
      .select()
      .from(workstreams)
      .where(
        and(
          eq(workstreams.orgId, sql.placeholder('orgId')),
          inArray(
            workstreams.id,
            ids.map((_, i) => sql.placeholder(`w${i}`)),
          ),
        ),
      )
      .orderBy(workstreams.id)
      .for('update'),
  );
  return lock.execute({ orgId: scope.orgId, ...Object.fromEntries(ids.map((id, i) => [`w${i}`, id])) });
}

/** Ledger rows per INSERT are bounded by size too, well under max_allowed_packet (16 MiB by default). */
const INSERT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Several events, possibly of several locked workstreams: batched inserts and one update.
 * With `lookUpKnown`, first one look-up of the event ids the ledger already holds (answered
 * as duplicates); without, an event id already held fails an INSERT (ER_DUP_ENTRY on
 * `workstream_events_event_id`) and the caller rolls back and appends again with it. That
 * saves a round trip inside the owner's append transaction, which single posts queue
 * behind, for every append but a retried delivery's.
 */
async function appendMany(
  tx: Executor,
  scope: OwnerScope,
  groups: readonly SessionEvents[],
  locked: readonly WorkstreamRow[],
  lookUpKnown: boolean,
): Promise<AppendOutcome[]> {
  const pairs = groups.flatMap((group, g) => group.drafts.map((draft) => ({ workstreamId: locked[g]!.id, eventId: draft.eventId })));
  // Ids repeated within the append are found here either way.
  const known = lookUpKnown ? await knownEvents(tx, scope, pairs) : new Map<string, number>();
  const rows: (typeof workstreamEvents.$inferInsert)[] = [];
  const ownerTag = searchTag('u', scope.userId);
  const advanced: { group: number; workstream: WorkstreamRow; session: SessionRef; appended: EventDraft[]; lastSequence: number }[] = [];
  const outcomes = groups.map((group, g): AppendOutcome => {
    const workstream = locked[g]!;
    let sequence = workstream.lastSequence;
    const appended: EventDraft[] = [];
    const events = group.drafts.map((draft): AppendedEvent => {
      const key = `${workstream.id}\u0000${draft.eventId}`;
      const original = known.get(key);
      if (original !== undefined) return { eventId: draft.eventId, sequence: original, duplicate: true };
      sequence += 1;
      known.set(key, sequence);
      appended.push(draft);
      rows.push(eventRow(scope, ownerTag, group.session, workstream.id, sequence, draft));
      return { eventId: draft.eventId, sequence, duplicate: false };
    });
    if (appended.length > 0) advanced.push({ group: g, workstream, session: group.session, appended, lastSequence: sequence });
    return { workstreamId: workstream.id, events, sealNow: false };
  });

  for (let start = 0; start < rows.length; ) {
    let end = start;
    for (let bytes = 0; end < rows.length && (end === start || bytes + rowBytes(rows[end]!) <= INSERT_MAX_BYTES); end++) bytes += rowBytes(rows[end]!);
    for (let at = start; at < end; ) {
      const size = INSERT_SIZES.find((candidate) => candidate <= end - at) ?? end - at;
      await insertEvents(tx, rows, at, size);
      at += size;
    }
    start = end;
  }
  const updates = advanced.map((entry) => advancedRow(entry.session, entry.workstream, entry.appended, entry.lastSequence));
  if (updates.length > 0) await advanceWorkstreams(tx, updates.map((update) => update.row));
  advanced.forEach((entry, index) => (outcomes[entry.group]!.sealNow = updates[index]!.sealNow));
  return outcomes;
}

/** Every column of a workstream row, in the order the advancing upsert binds them. */
const WORKSTREAM_COLUMNS = Object.keys(getTableColumns(workstreams)) as (keyof WorkstreamRow)[];

/** The upsert of `rows` (placeholders, or the rows themselves) as drizzle builds it. */
const advancing = (ex: Executor, rows: MySqlInsertValue<typeof workstreams>[]) =>
  ex
    .insert(workstreams)
    .values(rows)
    .onDuplicateKeyUpdate({ set: Object.fromEntries(ADVANCED_COLUMNS.map((column) => [column, sql`VALUES(${sql.identifier(workstreams[column].name)})`])) });

/** The upsert text for `size` rows, built once per size (LIST_SIZES). */
const advanceTexts = new Map<number, string>();
const advanceSql = (ex: Executor, size: number): string => {
  let text = advanceTexts.get(size);
  if (text === undefined) {
    const rows = Array.from({ length: size }, (_, r) => placeholderRow(WORKSTREAM_COLUMNS, (column) => `${column}.${r}`));
    text = advancing(ex, rows).toSQL().sql;
    advanceTexts.set(size, text);
  }
  return text;
};

/**
 * Moves locked workstream rows forward in one statement, prepared per connection: every
 * row exists and is locked, so the upsert only ever updates. The list is padded with
 * copies of its first row (LIST_SIZES), which set that row to the same values again.
 */
async function advanceWorkstreams(tx: Executor, rows: readonly WorkstreamRow[]): Promise<void> {
  const list = padded(rows, LIST_SIZES);
  await sendStatement(
    tx,
    () => {
      const values: unknown[] = new Array(list.length * WORKSTREAM_COLUMNS.length);
      let i = 0;
      for (const row of list) {
        for (const column of WORKSTREAM_COLUMNS) {
          const value = row[column];
          values[i++] = value === null || value === undefined ? null : workstreams[column].mapToDriverValue(value as never);
        }
      }
      return { sql: advanceSql(tx, list.length), values, prepare: true };
    },
    (on) => advancing(on, [...rows]),
  );
}

/**
 * Rows per multi-row INSERT: a run goes out as statements of these sizes while it has that
 * many rows left, and what is left under the smallest in one statement of its own size
 * (256 events in one, 255 in four, a group commit's 15 single posts in one), so a
 * connection prepares at most 35 shapes (1–32, 64, 128, 256). Each statement is a round
 * trip inside the owner's one append transaction, which single posts queue behind, so a
 * group of single posts goes in one rather than in powers of two down to 1. Each statement's
 * text is built once per size and sent with its values in the binary protocol (the driver
 * seam): building and escaping a statement the size of the rows' payloads per append cost
 * about as much CPU as the rest of the append.
 */
const INSERT_SIZES = [256, 128, 64, 32];

/** The INSERT text for `size` rows, built once per size. */
const insertTexts = new Map<number, string>();
const insertSql = (ex: Executor, size: number): string => {
  let text = insertTexts.get(size);
  if (text === undefined) {
    const rows = Array.from({ length: size }, (_, r) => placeholderRow(EVENT_COLUMNS, (column) => `${column}.${r}`));
    text = ex.insert(workstreamEvents).values(rows).toSQL().sql;
    insertTexts.set(size, text);
  }
  return text;
};

/**
 * Inserts `size` rows of `rows` from `at` as a server-side prepared statement (mysql2
 * `execute`, cached per connection): values go in the binary protocol, so nothing builds
 * and escapes a statement the size of the rows' payloads.
 */
async function insertEvents(tx: Executor, rows: readonly (typeof workstreamEvents.$inferInsert)[], at: number, size: number): Promise<void> {
  await sendStatement(
    tx,
    () => {
      const values: unknown[] = new Array(size * EVENT_COLUMNS.length);
      let i = 0;
      for (let r = 0; r < size; r++) {
        const row = rows[at + r]!;
        for (const column of EVENT_COLUMNS) {
          const value = row[column];
          values[i++] = value === null || value === undefined ? null : workstreamEvents[column].mapToDriverValue(value as never);
        }
      }
      return { sql: insertSql(tx, size), values, prepare: true };
    },
    (on) => on.insert(workstreamEvents).values(rows.slice(at, at + size)),
  );
}

const rowBytes = (row: typeof workstreamEvents.$inferInsert) => 512 + (row.payload?.length ?? 0) + row.content.length + row.searchTerms.length;

/** Event ids `pairs` already holds, by "workstream id NUL event id", with their sequences. */
async function knownEvents(ex: Executor, scope: OwnerScope, pairs: { workstreamId: string; eventId: string }[]): Promise<Map<string, number>> {
  const known = new Map<string, number>();
  const list = padded(pairs, LIST_SIZES);
  const query = preparedOn(ex, `knownEvents:${list.length}`, (on) =>
    on
      .select({ workstreamId: workstreamEvents.workstreamId, eventId: workstreamEvents.eventId, sequence: workstreamEvents.sequence })
      .from(workstreamEvents)
      .where(
        and(
          eq(workstreamEvents.orgId, sql.placeholder('orgId')),
          sql`(${workstreamEvents.workstreamId}, ${workstreamEvents.eventId}) IN (${sql.join(
            list.map((_, i) => sql`(${sql.placeholder(`w${i}`)}, ${sql.placeholder(`e${i}`)})`),
            sql`, `,
          )})`,
        ),
      ),
  );
  const params: Record<string, unknown> = { orgId: scope.orgId };
  list.forEach((pair, i) => {
    params[`w${i}`] = pair.workstreamId;
    params[`e${i}`] = pair.eventId;
  });
  for (const row of await query.execute(params)) known.set(`${row.workstreamId}\u0000${row.eventId}`, row.sequence);
  return known;
}

/** The ledger row of a draft (written out, not spread: one object shape, built for every event appended); `ownerTag` is the scope's user tag. */
function eventRow(scope: OwnerScope, ownerTag: SearchTag, session: SessionRef, workstreamId: string, sequence: number, draft: EventDraft) {
  return {
    workstreamId,
    sequence,
    eventId: draft.eventId,
    orgId: scope.orgId,
    userId: scope.userId,
    harness: session.harness,
    kind: draft.kind,
    role: draft.role,
    event: draft.event,
    lifecycleOnly: draft.lifecycleOnly,
    toolUseId: draft.toolUseId,
    toolName: draft.toolName,
    outcome: draft.outcome,
    content: draft.content,
    searchTerms: indexTerms(ownerTag, draft.content),
    occurredAt: draft.occurredAt,
    receivedAt: draft.receivedAt,
    metadata: draft.metadata,
    contentSha256: draft.contentSha256,
    payloadSha256: draft.payloadSha256,
    payloadBytes: draft.payloadBytes,
    payload: draft.payload,
    segmentKey: null,
  } satisfies Record<(typeof EVENT_COLUMNS)[number], unknown>;
}

/**
 * One event: inserted with the next sequence at once (the workstream row is locked, so the
 * sequence is free); a duplicate event id is recognised by the unique key, which leaves
 * the workstream as it was.
 */
async function appendOne(tx: Executor, scope: OwnerScope, session: SessionRef, workstream: WorkstreamRow, draft: EventDraft): Promise<AppendOutcome> {
  const sequence = workstream.lastSequence + 1;
  const insertOne = preparedOn(tx, 'insertEvent', (on) =>
    on.insert(workstreamEvents).values(placeholderRow(EVENT_COLUMNS, (column) => column)),
  );
  try {
    await insertOne.execute(eventRow(scope, searchTag('u', scope.userId), session, workstream.id, sequence, draft));
  } catch (error) {
    if (!hasErrorCode(error, 'ER_DUP_ENTRY')) throw error;
    const existing = preparedOn(tx, 'knownEvent', (on) =>
      on
        .select({ sequence: workstreamEvents.sequence })
        .from(workstreamEvents)
        .where(
          and(
            eq(workstreamEvents.orgId, sql.placeholder('orgId')),
            eq(workstreamEvents.workstreamId, sql.placeholder('workstreamId')),
            eq(workstreamEvents.eventId, sql.placeholder('eventId')),
          ),
        ),
    );
    const [original] = await existing.execute({ orgId: scope.orgId, workstreamId: workstream.id, eventId: draft.eventId });
    if (!original) throw error;
    return { workstreamId: workstream.id, events: [{ eventId: draft.eventId, sequence: original.sequence, duplicate: true }], sealNow: false };
  }
  const sealNow = await advanceWorkstream(tx, session, workstream, [draft], sequence);
  return { workstreamId: workstream.id, events: [{ eventId: draft.eventId, sequence, duplicate: false }], sealNow };
}

/** The workstream columns an append moves forward. */
const ADVANCED_COLUMNS = [
  'lastSequence', 'lastEventAt', 'pendingCount', 'pendingBytes', 'pendingSince', 'sealRequested', 'endedAt', 'cwd', 'project', 'transcriptPath', 'model',
] as const satisfies readonly (keyof WorkstreamRow)[];

/** The locked workstream row moved past newly appended events; `sealNow` when a segment should be sealed at once. */
function advancedRow(session: SessionRef, workstream: WorkstreamRow, appended: readonly EventDraft[], lastSequence: number) {
  let lastActivity = workstream.lastEventAt;
  let bytes = 0;
  let endsSession = false;
  for (const draft of appended) {
    if (draft.receivedAt > lastActivity) lastActivity = draft.receivedAt;
    bytes += draft.payloadBytes;
    endsSession ||= draft.endsSession;
  }
  const row: WorkstreamRow = {
    ...workstream,
    lastSequence,
    lastEventAt: lastActivity,
    pendingCount: workstream.pendingCount + appended.length,
    pendingBytes: workstream.pendingBytes + bytes,
    pendingSince: workstream.pendingSince ?? appended[0]!.receivedAt,
    sealRequested: workstream.sealRequested || endsSession,
    endedAt: endsSession ? lastActivity : workstream.endedAt,
    // Facts about the session are kept from the first event that has them.
    cwd: workstream.cwd ?? cut(session.cwd, 1024),
    project: workstream.project ?? session.project ?? null,
    transcriptPath: workstream.transcriptPath ?? cut(session.transcriptPath, 1024),
    model: workstream.model ?? cut(session.model, 128),
  };
  return { row, sealNow: endsSession || row.pendingCount >= SEGMENT_MAX_EVENTS || row.pendingBytes >= SEGMENT_MAX_BYTES };
}

/** Moves one locked workstream row past newly appended events; true when a segment should be sealed now. */
async function advanceWorkstream(
  tx: Executor,
  session: SessionRef,
  workstream: WorkstreamRow,
  appended: readonly EventDraft[],
  lastSequence: number,
): Promise<boolean> {
  const { row, sealNow } = advancedRow(session, workstream, appended, lastSequence);
  const update = preparedOn(tx, 'advanceWorkstream', (on) =>
    on
      .update(workstreams)
      .set(Object.fromEntries(ADVANCED_COLUMNS.map((column) => [column, bound(column)])))
      .where(and(eq(workstreams.orgId, sql.placeholder('orgId')), eq(workstreams.id, sql.placeholder('id')))),
  );
  await update.execute({ orgId: row.orgId, id: row.id, ...Object.fromEntries(ADVANCED_COLUMNS.map((column) => [column, row[column]])) });
  return sealNow;
}
