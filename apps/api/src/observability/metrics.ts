import { observeConnectionAcquisition, poolUsage, type Database } from '@memory-bank/db';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/*
 * The Prometheus metrics of one app instance (docs/observability.md lists them). Each
 * createApp() with metrics on gets its own registry, so apps in one process (tests) never
 * share a series. Every label has a bounded set of values: route templates, status
 * classes, error codes, tool names from the catalog, redaction kinds from the sanitizer.
 */

/** The route label of a request no route matched (never the raw path). */
export const UNMATCHED_ROUTE = 'unmatched';
/** The tool label of a call to a tool the caller's catalog does not have. */
export const UNKNOWN_TOOL = 'unknown';

export type ToolCallOutcome = 'ok' | 'error' | 'unknown_tool';
export type ArchiveFailure = 'segment' | 'deletion';

export interface ArchiveBacklogSample {
  pendingEvents: number;
  pendingBytes: number;
  unstoredSegments: number;
  /** Age of the oldest event not yet in object storage, in seconds (0 when none waits). */
  lagSeconds: number;
}

/** What the lifecycle jobs would delete now (services/maintenance.ts), read at scrape time. */
export interface LifecycleDueSample {
  expiredMemories: number;
  retentionMemories: number;
  retentionSegments: number;
  retentionEvents: number;
}

/** The (job, kind) pairs of the lifecycle series: what each job deletes. */
const LIFECYCLE_SERIES = [
  ['memory_expiry', 'memories'],
  ['memory_retention', 'memories'],
  ['workstream_retention', 'events'],
  ['workstream_retention', 'segments'],
  ['workstream_retention', 'workstreams'],
] as const;

export interface AppMetrics {
  readonly registry: Registry;
  /** A request began; call the returned function with its route template and status when it ends. */
  requestStarted(method: string): (route: string, status: number) => void;
  problem(code: string): void;
  hookEvents(accepted: number, duplicates: number): void;
  redactions(byKind: Readonly<Record<string, number>>): void;
  toolCall(tool: string, outcome: ToolCallOutcome): void;
  archiveFailure(operation: ArchiveFailure): void;
  /** Where the archive backlog gauges read from at scrape time. */
  observeArchiveBacklog(sample: () => Promise<ArchiveBacklogSample>): void;
  /** What a lifecycle job (memory_expiry, memory_retention, workstream_retention) deleted in a run of this process. */
  lifecycleRemoved(job: string, removed: Readonly<Partial<Record<string, number>>>): void;
  /** Where the lifecycle gauge reads what is due from at scrape time. */
  observeLifecycleDue(sample: () => Promise<LifecycleDueSample>): void;
  /** Stops observing the database pool. */
  close(): void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createMetrics(db: Database): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const requestDuration = new Histogram({
    name: 'memory_bank_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status class, and how long they took',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const inFlight = new Gauge({ name: 'memory_bank_http_requests_in_flight', help: 'HTTP requests being served', registers });
  const labelledCounter = <L extends string>(name: string, label: L, help: string) => new Counter({ name, help, labelNames: [label], registers });
  const problems = labelledCounter('memory_bank_http_problems_total', 'code', 'Problem responses by error code (rate_limited: rate-limit rejections; quota_exceeded: quota rejections)');
  const hookEvents = labelledCounter('memory_bank_hook_events_total', 'outcome', 'Hook events recorded in the ledger (accepted) and deliveries already recorded (duplicate)');
  const redactions = labelledCounter('memory_bank_hook_redactions_total', 'kind', 'Secrets redacted from hook payloads, by kind');
  const toolCalls = new Counter({
    name: 'memory_bank_mcp_tool_calls_total',
    help: 'MCP tools/call requests by tool and outcome',
    labelNames: ['tool', 'outcome'] as const,
    registers,
  });
  const archiveFailures = labelledCounter(
    'memory_bank_archive_store_failures_total',
    'operation',
    'Segment writes and object deletions that failed (object store or ledger) and will be retried',
  );
  for (const operation of ['segment', 'deletion'] as const) archiveFailures.inc({ operation }, 0);
  for (const outcome of ['accepted', 'duplicate'] as const) hookEvents.inc({ outcome }, 0);

  // One backlog query per scrape, shared by its four gauges.
  let sampleBacklog: (() => Promise<ArchiveBacklogSample>) | undefined;
  let sampling: { at: number; value: Promise<ArchiveBacklogSample | undefined> } | undefined;
  const backlog = (): Promise<ArchiveBacklogSample | undefined> => {
    const now = performance.now();
    if (!sampling || now - sampling.at > 1000) {
      sampling = { at: now, value: sampleBacklog ? sampleBacklog().catch(() => undefined) : Promise.resolve(undefined) };
    }
    return sampling.value;
  };
  const backlogGauge = (name: string, help: string, pick: (sample: ArchiveBacklogSample) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const sample = await backlog();
        // No sample (the database is away): no value rather than a misleading zero.
        if (sample) this.set(pick(sample));
        else this.reset();
      },
    });
  backlogGauge('memory_bank_archive_pending_events', 'Hook events not yet assigned to a stored segment', (s) => s.pendingEvents);
  backlogGauge('memory_bank_archive_pending_bytes', 'Payload bytes of the pending hook events', (s) => s.pendingBytes);
  backlogGauge('memory_bank_archive_unstored_segments', 'Sealed segments waiting for object storage', (s) => s.unstoredSegments);
  backlogGauge('memory_bank_archive_lag_seconds', 'Age of the oldest hook event not yet in object storage', (s) => s.lagSeconds);

  const lifecycleDeleted = new Counter({
    name: 'memory_bank_lifecycle_deleted_total',
    help: 'What expiry and retention deleted (by job: memory_expiry, memory_retention, workstream_retention; and kind: memories, events, segments, workstreams)',
    labelNames: ['job', 'kind'] as const,
    registers,
  });
  for (const [job, kind] of LIFECYCLE_SERIES) lifecycleDeleted.inc({ job, kind }, 0);
  let sampleDue: (() => Promise<LifecycleDueSample>) | undefined;
  new Gauge({
    name: 'memory_bank_lifecycle_due',
    help: 'What expiry and retention would delete now, in every org (by job and kind, as memory_bank_lifecycle_deleted_total)',
    labelNames: ['job', 'kind'] as const,
    registers,
    async collect() {
      // One gauge, so one read per scrape; no value while the database is away.
      const sample = await sampleDue?.().catch(() => undefined);
      this.reset();
      if (!sample) return;
      this.set({ job: 'memory_expiry', kind: 'memories' }, sample.expiredMemories);
      this.set({ job: 'memory_retention', kind: 'memories' }, sample.retentionMemories);
      this.set({ job: 'workstream_retention', kind: 'events' }, sample.retentionEvents);
      this.set({ job: 'workstream_retention', kind: 'segments' }, sample.retentionSegments);
    },
  });

  new Gauge({
    name: 'memory_bank_db_pool_connections',
    help: 'Database pool connections by state (in_use, free) and the pool size (size)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const usage = poolUsage(db);
      this.set({ state: 'in_use' }, usage.inUse);
      this.set({ state: 'free' }, usage.free);
      this.set({ state: 'size' }, usage.size);
    },
  });
  new Gauge({
    name: 'memory_bank_db_pool_queued_requests',
    help: 'Callers waiting for a database connection',
    registers,
    collect() {
      this.set(poolUsage(db).queued);
    },
  });
  const acquire = new Histogram({
    name: 'memory_bank_db_pool_acquire_seconds',
    help: 'Time to get a connection from the database pool (waiting, or opening a new one)',
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3],
    registers,
  });
  const stopObservingPool = observeConnectionAcquisition(db, (seconds) => acquire.observe(seconds));

  return {
    registry,
    requestStarted(method) {
      inFlight.inc();
      const end = requestDuration.startTimer({ method: METHODS.has(method) ? method : 'OTHER' });
      return (route, status) => {
        inFlight.dec();
        end({ route, status_class: `${Math.floor(status / 100)}xx` });
      };
    },
    problem: (code) => problems.inc({ code }),
    hookEvents(accepted, duplicates) {
      if (accepted > 0) hookEvents.inc({ outcome: 'accepted' }, accepted);
      if (duplicates > 0) hookEvents.inc({ outcome: 'duplicate' }, duplicates);
    },
    redactions(byKind) {
      for (const [kind, count] of Object.entries(byKind)) if (count > 0) redactions.inc({ kind }, count);
    },
    toolCall: (tool, outcome) => toolCalls.inc({ tool, outcome }),
    archiveFailure: (operation) => archiveFailures.inc({ operation }),
    observeArchiveBacklog(sample) {
      sampleBacklog = sample;
    },
    lifecycleRemoved(job, removed) {
      for (const [kind, count] of Object.entries(removed)) if (count) lifecycleDeleted.inc({ job, kind }, count);
    },
    observeLifecycleDue(sample) {
      sampleDue = sample;
    },
    close: stopObservingPool,
  };
}
