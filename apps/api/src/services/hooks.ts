import { randomUUID } from 'node:crypto';
import { appendWorkstreamEvents, createGroupCommit, newId, sessionKey, type Database, type EventDraft, type SessionRef } from '@memory-bank/db';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal';
import type { Clock } from '../clock';
import { AppError, type ErrorCode } from '../errors';
import { HARNESS_ADAPTERS } from '../hooks/adapters';
import { canonicalJson, sha256Hex } from '../hooks/canonical';
import { RECALL_RECORD_KEY, isRecallRecord, recallAdapter, recallPayload, type RecallRecord } from '../hooks/adapters/recall';
import { parseTimestamp } from '../hooks/adapters/text';
import { ledgerFields } from '../hooks/ledger';
import { projectKey } from '../hooks/project';
import type { Sanitizer } from '../hooks/sanitize';
import { AdapterError, type Harness, type HarnessAdapter, type HookPayload } from '../hooks/types';
import { HOOK_LIMITS, IDEMPOTENCY_LIMITS } from '../limits';

const MAX_PAYLOAD_BYTES = HOOK_LIMITS.payloadBytes;
/** What refuses one item of a batch while the others land: the item itself is invalid or too large. */
const REFUSED_ITEM_CODES: ReadonlySet<ErrorCode> = new Set(['bad_request', 'validation_failed', 'payload_too_large']);

export interface HookDelivery {
  harness: Harness;
  payload: unknown;
  idempotencyKey?: string;
  /**
   * When the client received the event (a batch item's occurred_at: a spooling forwarder
   * sends it later), used when the payload itself carries no time. Epoch s/ms or ISO 8601.
   */
  occurredAt?: string | number;
  /**
   * The client's project (the Memory-Bank-Project header, a batch item's `project`):
   * percent-encoded or plain. A grouping key among the caller's own sessions, never an
   * authority; unreadable, it is ignored and the directory decides (hooks/project.ts).
   */
  project?: string;
}

/** Where a delivery landed in the ledger. */
export interface HookReceipt {
  eventId: string;
  workstreamId: string;
  sequence: number;
  duplicate: boolean;
}

/** One item of a batch: recorded, or refused on its own (invalid or too large) while the rest land. */
export type BatchItemResult = { index: number; receipt: HookReceipt } | { index: number; refused: AppError };

interface PreparedEvent {
  session: SessionRef;
  draft: EventDraft;
}

/** Posts of one owner (and role) may share a transaction. */
const commitGroup = (principal: Principal) => `${principal.scope.orgId}\u0000${principal.scope.userId}\u0000${principal.scope.role}`;

export type HookIngestService = ReturnType<typeof createHookIngestService>;

export interface HookIngestDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  sanitizer: Sanitizer;
  /** Called when a workstream has a full segment or ended: seal it now rather than on the next tick. */
  onSealNeeded(workstreamId: string): void;
  /** Sees what each append recorded (metrics); absent, nothing is counted. */
  onRecorded?: (recorded: HookEventsRecorded) => void;
}

/** One append: events newly in the ledger, deliveries it already had, and the secrets redacted from the new ones. */
export interface HookEventsRecorded {
  accepted: number;
  duplicates: number;
  redactions: Record<string, number>;
}

function countRecorded(drafts: readonly EventDraft[][], outcomes: readonly { events: readonly { duplicate: boolean }[] }[]): HookEventsRecorded {
  const recorded: HookEventsRecorded = { accepted: 0, duplicates: 0, redactions: {} };
  outcomes.forEach((outcome, g) =>
    outcome.events.forEach((event, i) => {
      if (event.duplicate) {
        recorded.duplicates += 1;
        return;
      }
      recorded.accepted += 1;
      for (const [kind, count] of Object.entries(drafts[g]![i]!.metadata.redactions)) recorded.redactions[kind] = (recorded.redactions[kind] ?? 0) + count;
    }),
  );
  return recorded;
}

export function createHookIngestService({ db, clock, sanitizer, onSealNeeded, onRecorded }: HookIngestDeps) {
  /** The session's project key (hooks/project.ts); what the client sent is sanitized like a payload. */
  function projectOf(clientProject: string | undefined, cwd: string | undefined): string | undefined {
    return projectKey(clientProject, cwd, (sent) => sanitizer.sanitize(sent).value);
  }

  /** Sanitize → adapt → hash: everything before the database, for one delivery (or one of Memory Bank's own records). */
  function prepare(delivery: HookDelivery, receivedAt: Date, path: string, ownRecord?: HarnessAdapter): PreparedEvent {
    const { payload, harness } = delivery;
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      throw new AppError('validation_failed', 'A hook payload must be a JSON object', { errors: [{ path, message: 'Expected a JSON object' }] });
    }
    if (!ownRecord && isRecallRecord(payload as HookPayload)) {
      // Only the service records what it recalled: a harness cannot forge what a model was shown.
      const field = path === '(body)' ? RECALL_RECORD_KEY : `${path}.${RECALL_RECORD_KEY}`;
      throw new AppError('validation_failed', `${RECALL_RECORD_KEY} is reserved for Memory Bank's own recall records`, {
        errors: [{ path: field, message: 'Reserved field' }],
      });
    }
    if (delivery.idempotencyKey !== undefined && !IDEMPOTENCY_LIMITS.keyPattern.test(delivery.idempotencyKey)) {
      // A single post's key is its header; a batch item's sits beside its payload.
      const keyPath = path === '(body)' ? 'idempotency-key' : path.replace(/payload$/, 'idempotency_key');
      throw new AppError('validation_failed', 'Idempotency-Key must be 1–128 visible ASCII characters', {
        errors: [{ path: keyPath, message: 'Must be 1–128 visible ASCII characters' }],
      });
    }
    const sanitized = sanitizer.sanitize(payload as Record<string, unknown>);
    const canonical = canonicalJson(sanitized.value);
    const payloadBytes = Buffer.byteLength(canonical);
    if (payloadBytes > MAX_PAYLOAD_BYTES) {
      throw new AppError('payload_too_large', `A hook payload may be at most ${MAX_PAYLOAD_BYTES} bytes`);
    }
    let adapted;
    try {
      adapted = (ownRecord ?? HARNESS_ADAPTERS[harness])(sanitized.value);
    } catch (error) {
      if (error instanceof AdapterError) {
        throw new AppError('validation_failed', `Not a ${harness} hook payload: ${error.message}`, {
          errors: [{ path: path === '(body)' ? error.field : `${path}.${error.field}`, message: error.message }],
        });
      }
      throw error;
    }
    let clientTime: Date | null = null;
    if (delivery.occurredAt !== undefined) {
      clientTime = parseTimestamp(delivery.occurredAt);
      if (clientTime === null) {
        const timePath = path.replace(/payload$/, 'occurred_at');
        throw new AppError('validation_failed', 'occurred_at must be epoch seconds or milliseconds, or an ISO 8601 time, between 2000 and 2100', {
          errors: [{ path: timePath, message: 'Not a time between 2000 and 2100' }],
        });
      }
    }
    const payloadSha256 = sha256Hex(canonical);
    // The payload's own time first (it knows best), then the client's, then arrival.
    const occurredAt = adapted.occurredAt && Number.isFinite(adapted.occurredAt.getTime()) ? adapted.occurredAt : (clientTime ?? receivedAt);
    return {
      session: { harness, nativeSessionId: adapted.nativeSessionId, ...adapted.session, project: projectOf(delivery.project, adapted.session.cwd) },
      draft: {
        eventId: delivery.idempotencyKey ?? adapted.naturalKey ?? `sha256:${payloadSha256}`,
        ...ledgerFields(adapted),
        occurredAt,
        receivedAt,
        metadata: {
          redactions: sanitized.report.redactions,
          truncations: sanitized.report.truncations,
          truncated_bytes: sanitized.report.truncatedBytes,
        },
        payloadSha256,
        payload: canonical,
        payloadBytes,
        endsSession: adapted.endsSession,
      },
    };
  }

  /**
   * Appends prepared events (of one owner, any sessions) in one transaction, each session's
   * events in the order given; one result per event, in order.
   */
  async function appendPrepared(principal: Principal, events: readonly PreparedEvent[], now: Date): Promise<HookReceipt[]> {
    const groups = new Map<string, { session: SessionRef; drafts: EventDraft[]; positions: number[] }>();
    events.forEach(({ session, draft }, position) => {
      const key = sessionKey(session);
      const group = groups.get(key) ?? { session, drafts: [], positions: [] };
      group.drafts.push(draft);
      group.positions.push(position);
      groups.set(key, group);
    });
    const sessions = [...groups.values()];
    const outcomes = await appendWorkstreamEvents(db, principal.scope, sessions, { newWorkstreamId: () => newId('workstream', now), now });
    if (onRecorded) onRecorded(countRecorded(sessions.map((session) => session.drafts), outcomes));
    const receipts: HookReceipt[] = new Array(events.length);
    outcomes.forEach((outcome, g) => {
      if (outcome.sealNow) onSealNeeded(outcome.workstreamId);
      outcome.events.forEach((event, i) => {
        receipts[sessions[g]!.positions[i]!] = {
          eventId: event.eventId,
          workstreamId: outcome.workstreamId,
          sequence: event.sequence,
          duplicate: event.duplicate,
        };
      });
    });
    return receipts;
  }

  /** Single posts of one owner that arrive while one of theirs is being appended go together in the next transaction. */
  const singles = createGroupCommit<{ principal: Principal; event: PreparedEvent }, HookReceipt>({
    run: (items) => appendPrepared(items[0]!.principal, items.map((item) => item.event), clock.now()),
    maxItems: HOOK_LIMITS.batchEvents,
    weight: (item) => item.event.draft.payloadBytes + item.event.draft.content.length,
    maxWeight: HOOK_LIMITS.batchBytes,
  });

  return {
    projectOf,

    /** One delivery: sanitized, adapted, appended. Throws AppError (400/413) for payloads it cannot take. */
    async ingest(principal: Principal, delivery: HookDelivery): Promise<HookReceipt> {
      const event = prepare(delivery, clock.now(), '(body)');
      return singles.submit(commitGroup(principal), { principal, event });
    },

    /**
     * Records what a recall put into a harness session, sanitized like any hook payload,
     * as a `recall` event of that session (created if the session is new). Returns the
     * receipt and the record as stored: what the caller may show is what the ledger holds.
     */
    async recordRecall(
      principal: Principal,
      session: { harness: Harness; nativeSessionId: string; cwd?: string; project?: string },
      record: RecallRecord,
    ): Promise<{ receipt: HookReceipt; stored: RecallRecord }> {
      const delivery = { harness: session.harness, payload: recallPayload(session.nativeSessionId, record, session.cwd), idempotencyKey: `recall:${randomUUID()}` };
      const event = prepare(delivery, clock.now(), '(recall)', recallAdapter);
      // The recall's project is a key already (projectOf): kept as it is, for a session this recall may open.
      if (session.project !== undefined) event.session.project = session.project;
      const receipt = await singles.submit(commitGroup(principal), { principal, event });
      const stored = (JSON.parse(event.draft.payload) as Record<string, unknown>)[RECALL_RECORD_KEY] as RecallRecord;
      return { receipt, stored };
    },

    /**
     * Many deliveries, possibly of many sessions, appended in one transaction (each
     * session's events in the order given). Bad items are answered per item; the rest
     * still land.
     */
    async ingestBatch(principal: Principal, deliveries: HookDelivery[]): Promise<BatchItemResult[]> {
      const now = clock.now();
      const results: BatchItemResult[] = new Array(deliveries.length);
      const prepared: PreparedEvent[] = [];
      const indexes: number[] = [];
      deliveries.forEach((delivery, index) => {
        try {
          // A single post is held to 1 MiB by the body limit; a batch item is measured here.
          if (Buffer.byteLength(JSON.stringify(delivery.payload) ?? '') > MAX_PAYLOAD_BYTES) {
            throw new AppError('payload_too_large', `A hook payload may be at most ${MAX_PAYLOAD_BYTES} bytes`);
          }
          prepared.push(prepare(delivery, now, `events.${index}.payload`));
          indexes.push(index);
        } catch (error) {
          if (!(error instanceof AppError) || !REFUSED_ITEM_CODES.has(error.code)) throw error;
          results[index] = { index, refused: error };
        }
      });
      const receipts = prepared.length > 0 ? await appendPrepared(principal, prepared, now) : [];
      receipts.forEach((receipt, i) => (results[indexes[i]!] = { index: indexes[i]!, receipt }));
      return results;
    },
  };
}
