import { MEMORY_SCOPES, countMemoriesWithoutVector, memoriesWithoutVector, type Database } from '@memory-bank/db';
import { orgsToEmbed, releaseMaintenanceLease, renewMaintenanceLease, takeMaintenanceLease, type LeaseHolder } from '@memory-bank/db/system';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import { errorForLog } from '../logger';
import { embedMemories, type EmbeddedBatch } from './embed-memories';
import type { EmbeddingProvider } from './embedding-provider';
import type { ProviderHealth } from './provider-health';

/** The lease (maintenance_leases, docs/adr/0009) that lets one replica at a time run the backfill. */
export const BACKFILL_JOB = 'embedding_backfill';
/** Memories read and embedded per step. */
const BACKFILL_BATCH = 64;
/** Progress is logged about this often while it runs. */
const PROGRESS_EVERY_MS = 10_000;

export interface BackfillOptions {
  /** How often the sweep runs after the first run at start (EMBEDDINGS_SWEEP_MS). */
  sweepMs: number;
  /** How long the lease lasts unless renewed; renewed every third of it. */
  leaseMs: number;
}

/** Where the backfill is: the run in progress (or the last one), for doctor and /metrics. */
export interface BackfillProgress {
  running: boolean;
  orgsDone: number;
  orgsTotal: number;
  embedded: number;
  notServed: number;
  startedAt: string | null;
  finishedAt: string | null;
}

export type EmbeddingBackfill = ReturnType<typeof createEmbeddingBackfill>;

/**
 * Embeds the memories that have no current vector — saved before embeddings existed, saved
 * while the provider was down, or embedded by another model (a changed EMBEDDINGS_MODEL
 * re-embeds everything this way) — org by org, a batch at a time, at start and then every
 * sweepMs (which also heals a crash between a save's commit and its embedding). Under the
 * `embedding_backfill` lease, so one replica works at a time; each step reads what is still
 * missing, so a run cut short (a restart, a lost lease, the provider down) resumes where it
 * stopped. Progress is logged as counts only.
 */
export function createEmbeddingBackfill(deps: {
  db: Database;
  provider: EmbeddingProvider;
  health: ProviderHealth;
  clock: Clock;
  logger: Logger;
  options: BackfillOptions;
  /** Hears each batch stored (metrics) and which org has new vectors (the index). */
  onBatch?(batch: EmbeddedBatch): void;
  onStored?(org: { orgId: string }): void;
}) {
  const { db, provider, health, clock, logger, options } = deps;
  const lease: LeaseHolder = { job: BACKFILL_JOB, holder: `${hostname().slice(0, 40)}/${process.pid}/${randomBytes(4).toString('hex')}` };
  const progress: BackfillProgress = { running: false, orgsDone: 0, orgsTotal: 0, embedded: 0, notServed: 0, startedAt: null, finishedAt: null };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopping = false;

  /** Every org's missing vectors, while `keepGoing()`; false when it stopped early. */
  async function work(keepGoing: () => boolean): Promise<boolean> {
    const orgs = await orgsToEmbed(db);
    Object.assign(progress, { orgsDone: 0, orgsTotal: orgs.length, embedded: 0, notServed: 0 });
    let loggedAt = performance.now();
    for (const org of orgs) {
      for (const scope of MEMORY_SCOPES) {
        for (let afterId = ''; ; ) {
          if (!keepGoing()) return false;
          const memories = await memoriesWithoutVector(db, org, provider.model, { scope, afterId, limit: BACKFILL_BATCH });
          if (memories.length === 0) break;
          const batch = await embedMemories(db, provider, org, memories);
          health.succeeded();
          progress.embedded += batch.embedded;
          progress.notServed += batch.notServed;
          deps.onBatch?.(batch);
          deps.onStored?.(org);
          afterId = memories.at(-1)!.id;
          if (performance.now() - loggedAt > PROGRESS_EVERY_MS) {
            loggedAt = performance.now();
            logger.info({ model: provider.model, orgs_done: progress.orgsDone, orgs: progress.orgsTotal, embedded: progress.embedded, not_served: progress.notServed }, 'embedding backfill');
          }
        }
      }
      progress.orgsDone += 1;
    }
    return true;
  }

  /** One run, if no other replica holds the lease: true when it finished, false when another holds it or it stopped early. */
  async function tryRun(): Promise<boolean> {
    const until = () => new Date(clock.now().getTime() + options.leaseMs);
    if (!(await takeMaintenanceLease(db, lease, clock.now(), until()))) return false;
    let held = true;
    const heartbeat = setInterval(() => {
      renewMaintenanceLease(db, lease, until()).then(
        (renewed) => {
          if (!renewed) held = false;
        },
        (error: unknown) => logger.warn({ error: errorForLog(error) }, 'embedding backfill lease not renewed'),
      );
    }, Math.max(1, Math.floor(options.leaseMs / 3)));
    heartbeat.unref();
    Object.assign(progress, { running: true, startedAt: clock.now().toISOString(), finishedAt: null });
    try {
      const finished = await work(() => held && !stopping);
      if (finished && progress.embedded + progress.notServed > 0) {
        logger.info({ model: provider.model, orgs: progress.orgsTotal, embedded: progress.embedded, not_served: progress.notServed }, 'embedding backfill finished');
      }
      return finished;
    } catch (error) {
      health.failed(error);
      logger.warn({ model: provider.model, error: errorForLog(error), embedded: progress.embedded }, 'embedding backfill stopped; it resumes at the next sweep');
      return false;
    } finally {
      clearInterval(heartbeat);
      Object.assign(progress, { running: false, finishedAt: clock.now().toISOString() });
      await releaseMaintenanceLease(db, lease).catch(() => undefined);
    }
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      running = tryRun()
        .catch((error: unknown) => logger.warn({ error: errorForLog(error) }, 'embedding backfill failed; retrying at the next sweep'))
        .finally(() => {
          running = undefined;
          if (timer && !stopping) schedule(options.sweepMs);
        });
    }, delayMs);
    timer.unref();
  }

  return {
    holder: lease.holder,
    tryRun,
    progress: (): Readonly<BackfillProgress> => ({ ...progress }),
    /** Memories of every org without a current vector (doctor, the /metrics gauge); `updatedBefore`: only those last written before then. */
    async missing(updatedBefore?: Date): Promise<number> {
      let total = 0;
      for (const org of await orgsToEmbed(db)) total += await countMemoriesWithoutVector(db, org, provider.model, updatedBefore);
      return total;
    },
    /** Runs now, then every sweepMs, until stop(). */
    start(): void {
      stopping = false;
      if (!timer) schedule(0);
    },
    /** Stops the sweep; a run in progress ends after its batch and gives the lease up. */
    async stop(): Promise<void> {
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
