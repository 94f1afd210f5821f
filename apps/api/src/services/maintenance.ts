import {
  deleteExpiredOAuthRecords,
  deleteMaintenanceRunsBefore,
  expiredMemoriesEverywhere,
  lifecycleDue,
  orgScopeOf,
  orgsWithRetention,
  purgeExpiredIdempotencyKeysEverywhere,
  recordMaintenanceRun,
  releaseMaintenanceLease,
  renewMaintenanceLease,
  takeMaintenanceLease,
  type ExpiredMemory,
  type LeaseHolder,
  type LifecycleDue,
} from '@memory-bank/db/system';
import type { OrgScope } from '@memory-bank/db';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Archiver } from '../archive/sealer';
import { errorForLog } from '../logger';
import { IDEMPOTENCY_LIMITS, RETENTION_LIMITS } from '../limits';
import { createRetention, type RetentionStep } from './retention';
import type { ServiceDeps } from './deps';

/** Per pass: orgs visited, expired keys deleted per org, and passes per run at most. */
const PURGE = { orgs: 100, batch: 1000, passes: 10 };
/** Expired memories found per read (across orgs). */
const EXPIRED_PER_READ = 500;
/** How often runOnce looks at a lease another process holds. */
const LEASE_POLL_MS = 100;

/** The jobs whose deletions are recorded (maintenance_runs), counted (metrics) and reported (doctor). */
export const LIFECYCLE_JOBS = ['memory_expiry', 'memory_retention', 'workstream_retention'] as const;
export type LifecycleJob = (typeof LIFECYCLE_JOBS)[number];

/** What a job removed in one run: memories, or events with their segments and emptied workstreams. */
export type Removed = Partial<Record<'memories' | 'events' | 'segments' | 'workstreams', number>>;

export interface MaintenanceReport {
  /** Per lifecycle job, what it removed (jobs that removed nothing are absent). */
  removed: Partial<Record<LifecycleJob, Removed>>;
  idempotencyKeys: number;
  oauthRecords: number;
}

export interface MaintenanceOptions {
  /** How often each process tries to run (start to start). */
  intervalMs: number;
  /** How long a lease lasts unless renewed; the holder renews it every third of it. */
  leaseMs: number;
  /** Time each job spends in one run before leaving the rest to the next. */
  jobBudgetMs: number;
}

export interface MaintenanceDeps extends Pick<ServiceDeps, 'db' | 'clock' | 'logger'> {
  archiver: Archiver;
  options?: Partial<MaintenanceOptions>;
  /** Hears what each lifecycle job removed (metrics). */
  onRemoved?: (job: LifecycleJob, removed: Removed) => void;
}

export type Maintenance = ReturnType<typeof createMaintenance>;

/** Who holds the lease: this host and process, and a random part for each app in it. */
function holderId(): string {
  return `${hostname().slice(0, 40)}/${process.pid}/${randomBytes(4).toString('hex')}`;
}

const total = (removed: Removed) => Object.values(removed).reduce((sum, n) => sum + (n ?? 0), 0);

/**
 * Work the request path should not pay for, in the background of every API process:
 * expired memories and what the orgs' retention settings no longer keep are deleted
 * (services/retention.ts), and so are expired Idempotency-Keys and the authorization
 * server's expired records. Each run first takes the lease of `maintenance_leases`, so one
 * process across replicas works at a time; it renews the lease while it works and gives it up
 * when done. A process that dies holding it leaves a lease that ends by itself, and the next
 * process to try takes over. Every run reads what is due from the database, so a run cut
 * short is finished by the next one.
 */
export function createMaintenance(deps: MaintenanceDeps) {
  const { db, clock, logger } = deps;
  const options: MaintenanceOptions = {
    intervalMs: RETENTION_LIMITS.intervalMs,
    leaseMs: RETENTION_LIMITS.leaseMs,
    jobBudgetMs: RETENTION_LIMITS.jobBudgetMs,
    ...deps.options,
  };
  const lease: LeaseHolder = { job: 'maintenance', holder: holderId() };
  const retention = createRetention({ db, archiver: deps.archiver });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopping = false;

  const orgFailed = (job: LifecycleJob, orgId: string, error: unknown) =>
    logger.warn({ job, org_id: orgId, error: errorForLog(error) }, 'maintenance job failed for an org; retrying on the next run');

  /**
   * Expired memories of every org, a read at a time, each org's through its own scope. An
   * org whose deletion fails is left for the next run (logged), and so is the rest of the read.
   */
  async function expireMemories(keepGoing: () => boolean): Promise<Removed> {
    let memories = 0;
    while (keepGoing()) {
      const now = clock.now();
      const found = await expiredMemoriesEverywhere(db, now, EXPIRED_PER_READ);
      const byOrg = new Map<string, ExpiredMemory[]>();
      for (const row of found) byOrg.get(row.orgId)?.push(row) ?? byOrg.set(row.orgId, [row]);
      let failed = false;
      for (const [orgId, rows] of byOrg) {
        try {
          memories += await retention.expireMemories(orgScopeOf({ id: orgId }), rows, now);
        } catch (error) {
          failed = true;
          orgFailed('memory_expiry', orgId, error);
        }
      }
      if (failed || found.length < EXPIRED_PER_READ) break;
    }
    return { memories };
  }

  /**
   * One job over the orgs it applies to, a batch per org in turn, until none has more or
   * the job's time is up. An org whose batch fails is left for the next run (logged); the
   * others go on.
   */
  async function eachOrg(
    job: LifecycleJob,
    orgs: { org: OrgScope; days: number }[],
    step: (org: OrgScope, days: number, now: Date) => Promise<RetentionStep>,
    keepGoing: () => boolean,
  ): Promise<Removed> {
    const removed = { memories: 0, events: 0, segments: 0, workstreams: 0 };
    let pending = orgs;
    while (pending.length > 0) {
      const next: typeof pending = [];
      for (const entry of pending) {
        if (!keepGoing()) return removed;
        try {
          const done = await step(entry.org, entry.days, clock.now());
          removed.memories += done.memories;
          removed.events += done.events;
          removed.segments += done.segments;
          removed.workstreams += done.workstreams;
          if (done.more) next.push(entry);
        } catch (error) {
          orgFailed(job, entry.org.orgId, error);
        }
      }
      pending = next;
    }
    return removed;
  }

  async function purgeExpiredKeys(): Promise<{ idempotencyKeys: number; oauthRecords: number }> {
    const before = new Date(clock.now().getTime() - IDEMPOTENCY_LIMITS.keyTtlMs);
    let idempotencyKeys = 0;
    for (let pass = 0; pass < PURGE.passes; pass++) {
      const result = await purgeExpiredIdempotencyKeysEverywhere(db, before, PURGE);
      idempotencyKeys += result.deleted;
      if (!result.full) break;
    }
    let oauthRecords = 0;
    for (let pass = 0; pass < PURGE.passes; pass++) {
      const expired = await deleteExpiredOAuthRecords(db, clock.now(), PURGE.batch);
      oauthRecords += expired;
      if (expired < PURGE.batch) break;
    }
    return { idempotencyKeys, oauthRecords };
  }

  /** Every job once, while the lease is this process's (`held`). */
  async function work(held: () => boolean): Promise<MaintenanceReport> {
    const budget = () => {
      const until = performance.now() + options.jobBudgetMs;
      return () => held() && !stopping && performance.now() < until;
    };
    const removed: MaintenanceReport['removed'] = {};
    const keep = (job: LifecycleJob, what: Removed) => {
      const counted = Object.fromEntries(Object.entries(what).filter(([, n]) => (n ?? 0) > 0));
      if (total(counted) > 0) removed[job] = counted;
    };
    keep('memory_expiry', await expireMemories(budget()));
    const settings = await orgsWithRetention(db);
    const of = (days: (entry: (typeof settings)[number]) => number | null) =>
      settings.flatMap((entry) => {
        const n = days(entry);
        return n === null ? [] : [{ org: orgScopeOf({ id: entry.orgId }), days: n }];
      });
    keep('memory_retention', await eachOrg('memory_retention', of((entry) => entry.memoryRetentionDays), retention.retainMemories, budget()));
    keep('workstream_retention', await eachOrg('workstream_retention', of((entry) => entry.workstreamRetentionDays), retention.retainWorkstreamEvents, budget()));
    const purged = await purgeExpiredKeys();
    return { removed, ...purged };
  }

  /** Records what the run removed (doctor reads it), tells metrics, forgets old records. */
  async function record(report: MaintenanceReport, startedAt: Date): Promise<void> {
    const finishedAt = clock.now();
    for (const job of LIFECYCLE_JOBS) {
      const removed = report.removed[job];
      if (!removed) continue;
      deps.onRemoved?.(job, removed);
      await recordMaintenanceRun(db, { job, holder: lease.holder, startedAt, finishedAt, counts: removed });
    }
    await deleteMaintenanceRunsBefore(db, new Date(finishedAt.getTime() - RETENTION_LIMITS.keepRunsMs));
  }

  /** One run, if no other process holds the lease: its report, or null when another does. */
  async function tryRun(): Promise<MaintenanceReport | null> {
    const leaseFrom = (at: Date) => new Date(at.getTime() + options.leaseMs);
    const startedAt = clock.now();
    if (!(await takeMaintenanceLease(db, lease, startedAt, leaseFrom(startedAt)))) return null;
    let held = true;
    const heartbeat = setInterval(() => {
      renewMaintenanceLease(db, lease, leaseFrom(clock.now())).then(
        (renewed) => {
          // Lapsed and taken by another process (this one stalled): stop at the next batch.
          if (!renewed) held = false;
        },
        (error: unknown) => logger.warn({ error: errorForLog(error) }, 'maintenance lease not renewed'),
      );
    }, Math.max(1, Math.floor(options.leaseMs / 3)));
    heartbeat.unref();
    try {
      const report = await work(() => held);
      await record(report, startedAt);
      return report;
    } finally {
      clearInterval(heartbeat);
      // If this fails, the lease ends by itself.
      await releaseMaintenanceLease(db, lease).catch(() => undefined);
    }
  }

  /** One run now, for tests and the CLI: waits while another process holds the lease. */
  async function run(): Promise<MaintenanceReport> {
    const deadline = performance.now() + 2 * options.leaseMs;
    for (;;) {
      const report = await tryRun();
      if (report) return report;
      if (performance.now() > deadline) throw new Error('another process has held the maintenance lease for too long');
      await new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS));
    }
  }

  function log(report: MaintenanceReport | null): void {
    if (!report) return;
    const lifecycle = Object.fromEntries(Object.entries(report.removed));
    if (Object.keys(lifecycle).length > 0 || report.idempotencyKeys > 0 || report.oauthRecords > 0) {
      logger.info({ ...lifecycle, idempotency_keys: report.idempotencyKeys, oauth_records: report.oauthRecords }, 'maintenance removed what was due');
    }
  }

  function schedule(): void {
    timer = setTimeout(() => {
      running = tryRun()
        .then(log, (error: unknown) => logger.warn({ error: errorForLog(error) }, 'maintenance run failed; retrying on the next'))
        .finally(() => {
          running = undefined;
          if (timer) schedule();
        });
    }, options.intervalMs);
    timer.unref();
  }

  return {
    /** The id this process holds the lease under. */
    holder: lease.holder,
    tryRun,
    run,
    /** What the jobs would delete now, in every org (the /metrics gauge). */
    due: (): Promise<LifecycleDue> => lifecycleDue(db, clock.now()),
    /** One run now (waiting for the lease): how many rows and objects' worth of things it removed. */
    async runOnce(): Promise<number> {
      const report = await run();
      return Object.values(report.removed).reduce((sum, removed) => sum + total(removed), 0) + report.idempotencyKeys + report.oauthRecords;
    },
    /** Runs every intervalMs until stop(). */
    start(): void {
      stopping = false;
      if (!timer) schedule();
    },
    /** Stops the loop; a run in progress ends at its next batch and gives the lease up. */
    async stop(): Promise<void> {
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
