import { workstreamManifestKey, type Database, type SegmentClaim } from '@memory-bank/db';
import {
  claimSegments,
  completeDeletion,
  dueDeletions,
  dueForSealing,
  findWorkstreamForArchive,
  leaseUnstoredSegments,
  markSegmentStored,
  recordDeletionFailure,
  recordSegmentFailure,
  renewSegmentLeases,
  segmentEvents,
  segmentState,
} from '@memory-bank/db/system';
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { errorForLog } from '../logger';
import type { Clock } from '../clock';
import type { ObjectStore } from './object-store';
import { SEGMENT_CONTENT_TYPE, buildSegment } from './segment';

export interface ArchiverOptions {
  /** How often the background loop looks for work. */
  intervalMs: number;
  /** A partial segment is sealed once its oldest event is this old. */
  maxAgeMs: number;
  /** Workstreams sealed in parallel per tick. */
  concurrency: number;
  /**
   * How long a claim is this process's alone. A live process renews the lease of every
   * segment it is storing (a heartbeat every third of it), so a slow upload keeps its
   * claim while a crashed process's claims fall due to any other process within leaseMs.
   * Short on purpose: a second upload of the same segment is harmless (identical bytes,
   * conditional put, idempotent bookkeeping) and membership was fixed when it was claimed.
   */
  leaseMs: number;
}

export const DEFAULT_ARCHIVER_OPTIONS: ArchiverOptions = { intervalMs: 1000, maxAgeMs: 5000, concurrency: 4, leaseMs: 5000 };

const RETRY_BASE_MS = 1000;
const MANIFEST_MEMO = 10_000;
const RETRY_MAX_MS = 60_000;

function backoff(attempts: number): number {
  const exponential = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempts, 16));
  return exponential / 2 + Math.random() * (exponential / 2);
}

/** Error text safe to store and log: names and messages, never query parameters (payloads). */
function describe(error: unknown): string {
  return errorForLog(error)
    .map((link) => `${String(link.name ?? 'Error')}: ${String(link.message ?? '')}`)
    .join(' ← ');
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

export type Archiver = ReturnType<typeof createArchiver>;

/** Where a purge of archive objects is: objects handled of those known so far, and how each went. */
export interface PurgeProgress {
  done: number;
  total: number;
  deleted: number;
  failed: number;
}

/** Queued deletions handled per query (and per `IN (…)` list of keys). */
const DELETION_BATCH = 256;

/**
 * Moves sealed segments from the ledger to object storage and deletes objects of deleted
 * workstreams. Every API process runs one; they coordinate through the database (row
 * locks when claiming, leases when retrying), never through each other. An object-store
 * outage delays this work (with backoff) but never ingestion: until a segment is stored,
 * its payloads stay in MySQL.
 */
export interface ArchiverDeps {
  db: Database;
  store: ObjectStore;
  clock: Clock;
  logger: Logger;
  options?: Partial<ArchiverOptions>;
  /** Counts a failed segment write or object deletion (metrics). */
  onStoreFailure?: (operation: 'segment' | 'deletion') => void;
  /** Traces each segment it stores (its statements and object-store calls become child spans). */
  tracer?: Tracer;
}

export function createArchiver(deps: ArchiverDeps) {
  const { db, store, clock, logger, tracer } = deps;
  const options = { ...DEFAULT_ARCHIVER_OPTIONS, ...deps.options };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  /** Segments this process has claimed or leased and not finished with: the heartbeat renews their leases. */
  const held = new Set<string>();
  let heartbeat: NodeJS.Timeout | undefined;

  function hold(claims: SegmentClaim[]): void {
    for (const claim of claims) held.add(claim.key);
    if (held.size === 0 || heartbeat !== undefined) return;
    heartbeat = setInterval(() => {
      const until = new Date(clock.now().getTime() + options.leaseMs);
      renewSegmentLeases(db, [...held], until).catch((error: unknown) => logger.warn({ err: describe(error) }, 'archive lease not renewed'));
    }, Math.max(1, Math.floor(options.leaseMs / 3)));
    heartbeat.unref();
  }

  function release(key: string): void {
    held.delete(key);
    if (held.size > 0 || heartbeat === undefined) return;
    clearInterval(heartbeat);
    heartbeat = undefined;
  }

  /** Workstreams whose manifest this process has stored (bounded; forgetting only costs a check). */
  const manifestsStored = new Set<string>();

  async function putManifest(workstream: NonNullable<Awaited<ReturnType<typeof findWorkstreamForArchive>>>): Promise<void> {
    const manifest = {
      v: 1,
      id: workstream.id,
      org_id: workstream.orgId,
      user_id: workstream.userId,
      harness: workstream.harness,
      native_session_id: workstream.nativeSessionId,
      created_at: workstream.createdAt.toISOString(),
    };
    await store.putImmutable(workstreamManifestKey(workstream.orgId, workstream.id), Buffer.from(`${JSON.stringify(manifest)}\n`), 'application/json');
    if (manifestsStored.size >= MANIFEST_MEMO) manifestsStored.clear();
    manifestsStored.add(workstream.id);
  }

  function storeSegment(claim: SegmentClaim): Promise<void> {
    return tracer ? tracer.startActiveSpan('archive store segment', (span) => storeSegmentNow(claim).finally(() => span.end())) : storeSegmentNow(claim);
  }

  async function storeSegmentNow(claim: SegmentClaim): Promise<void> {
    let attempts = 0;
    try {
      const current = await segmentState(db, claim.key);
      attempts = current.attempts;
      if (current.state !== 'pending') return; // stored by a slow peer, or deleted with its workstream
      const workstream = await findWorkstreamForArchive(db, claim.workstreamId);
      if (!workstream) return;
      const events = await segmentEvents(db, claim);
      const expected = claim.lastSequence - claim.firstSequence + 1;
      // Payloads are dropped only in the transaction that marks the segment stored.
      if (events.length !== expected || events.some((event) => event.payload === null)) {
        throw new Error(`segment ${claim.key}: ledger has ${events.length} of ${expected} events with payloads`);
      }
      // The manifest is written with a workstream's first segment this process stores and
      // checked again only after a restart (or when the memo is full): it never changes.
      if (!manifestsStored.has(workstream.id)) await putManifest(workstream);
      const segment = buildSegment(events as (typeof events[number] & { payload: string })[]);
      await store.putImmutable(claim.key, segment.body, SEGMENT_CONTENT_TYPE);
      const outcome = await markSegmentStored(db, claim, { sha256: segment.sha256, bytes: segment.body.byteLength, at: clock.now() });
      if (outcome === 'gone') {
        await store.delete(claim.key);
        await store.delete(workstreamManifestKey(claim.orgId, claim.workstreamId));
        manifestsStored.delete(claim.workstreamId);
      }
    } catch (error) {
      release(claim.key); // before the backoff is recorded, so no heartbeat shortens it
      deps.onStoreFailure?.('segment');
      const retryAt = new Date(clock.now().getTime() + backoff(attempts));
      await recordSegmentFailure(db, claim.key, { error: describe(error), retryAt }).catch(() => undefined);
      logger.warn({ segment: claim.key, attempts: attempts + 1, retry_at: retryAt.toISOString(), err: describe(error) }, 'segment not stored yet');
    } finally {
      release(claim.key);
    }
  }

  async function sealWorkstream(workstreamId: string, force: boolean): Promise<void> {
    const now = clock.now();
    const claims = await claimSegments(db, workstreamId, {
      now,
      olderThan: new Date(now.getTime() - options.maxAgeMs),
      force,
      maxSegments: 8,
      leaseUntil: new Date(now.getTime() + options.leaseMs),
    });
    hold(claims);
    for (const claim of claims) await storeSegment(claim);
  }

  /** Deletes queued objects (deleted workstreams); failures are recorded and retried. `tally` hears of each. */
  async function deleteObjects(keys?: string[], tally?: (deleted: boolean) => void): Promise<void> {
    const now = clock.now();
    const due = await dueDeletions(db, { now, limit: DELETION_BATCH, ...(keys ? { keys } : {}) });
    await inParallel(due, options.concurrency, async (key) => {
      try {
        await store.delete(key);
        await completeDeletion(db, key);
        tally?.(true);
      } catch (error) {
        deps.onStoreFailure?.('deletion');
        await recordDeletionFailure(db, key, { error: describe(error), retryAt: new Date(now.getTime() + backoff(1)) }).catch(() => undefined);
        logger.warn({ object: key, err: describe(error) }, 'object not deleted yet');
        tally?.(false);
      }
    });
  }

  /**
   * Deletes objects the ledger just queued (deleted workstreams, purges, org deletion),
   * a batch at a time, then anything left under `prefixes` that the ledger did not know of
   * (an upload that raced the delete). What fails now stays queued and is retried.
   * `onProgress` hears the counts after each batch (the CLI prints them).
   */
  async function purgeObjects(keys: string[], prefixes: string[], onProgress?: (progress: PurgeProgress) => void): Promise<PurgeProgress> {
    const progress: PurgeProgress = { done: 0, total: keys.length, deleted: 0, failed: 0 };
    const tally = (deleted: boolean) => {
      if (deleted) progress.deleted += 1;
      else progress.failed += 1;
    };
    for (let start = 0; start < keys.length; start += DELETION_BATCH) {
      const batch = keys.slice(start, start + DELETION_BATCH);
      await deleteObjects(batch, tally);
      // A key no longer queued (another process deleted it) is done too.
      progress.done += batch.length;
      onProgress?.({ ...progress });
    }
    for (const prefix of prefixes) {
      const leftovers = await store.list(prefix).catch(() => []);
      progress.total += leftovers.length;
      await inParallel(leftovers, options.concurrency, (key) => store.delete(key).then(() => tally(true), () => tally(false)));
      progress.done += leftovers.length;
      if (leftovers.length > 0) onProgress?.({ ...progress });
    }
    return progress;
  }

  /** One pass: retries, due workstreams, deletions. `force` seals every pending event. */
  async function tick(force = false): Promise<void> {
    const now = clock.now();
    const retries = await leaseUnstoredSegments(db, { now, leaseMs: options.leaseMs, limit: 32 });
    hold(retries);
    await inParallel(retries, options.concurrency, storeSegment);
    for (;;) {
      const due = await dueForSealing(db, { olderThan: new Date(clock.now().getTime() - options.maxAgeMs), limit: 64, all: force });
      await inParallel(due, options.concurrency, (id) => sealWorkstream(id, force));
      if (due.length < 64) break;
    }
    await deleteObjects();
  }

  function run(force = false): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await tick(force);
        } catch (error) {
          logger.warn({ err: describe(error) }, 'archive pass failed; retrying on the next tick');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  /**
   * A pass every intervalMs, counted from the start of the last: one that takes longer is
   * followed at once by the next (see run), so under load events do not wait out a full
   * interval on top of a long pass before they are looked at again.
   */
  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      schedule();
      void run();
    }, options.intervalMs);
    timer.unref();
  }

  return {
    start(): void {
      if (!stopped) return;
      stopped = false;
      void run();
      schedule();
    },
    /** Seal now instead of on the next tick (a full segment, a SessionEnd). */
    wake(): void {
      if (!stopped) void run();
    },
    /** One complete pass, for tests and the CLI. */
    runOnce: (force = false) => tick(force),
    deleteObjects,
    purgeObjects,
    /** Stops the loop and seals everything pending (graceful shutdown). */
    async stop(flush = true): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
      if (flush) await tick(true).catch((error: unknown) => logger.warn({ err: describe(error) }, 'final seal failed'));
    },
  };
}
