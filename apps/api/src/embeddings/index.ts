import type { Database, OrgScope } from '@memory-bank/db';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { errorForLog } from '../logger';
import { createEmbeddingBackfill, type BackfillOptions, type BackfillProgress, type EmbeddingBackfill } from './backfill';
import { createComputeWorker } from './compute-worker-client';
import type { EmbeddedBatch } from './embed-memories';
import { createEmbeddingQueue } from './embedding-queue';
import type { EmbeddingProvider } from './embedding-provider';
import { providerFromConfig } from './provider';
import { createProviderHealth } from './provider-health';
import { createSemanticIndex, type SemanticIndex } from './semantic-index';

export type { SemanticCandidate, SemanticIndex } from './semantic-index';
export { BACKFILL_JOB, type BackfillProgress, type EmbeddingBackfill } from './backfill';
export type { EmbeddedBatch } from './embed-memories';
export type { EmbeddingProvider, SimilarityCalibration } from './embedding-provider';
export { LOCAL_MODEL_KEY } from './provider';
export { embeddingsEndpoint } from './openai-provider';

/** What the embedding subsystem reports as it works (metrics). */
export interface EmbeddingEvents {
  /** A batch was stored; lagSeconds: from each embedded memory's save to its vector (the queue's only). */
  stored(batch: EmbeddedBatch, lagSeconds: readonly number[]): void;
  /** The provider failed to embed a batch of memories or a query. */
  failed(): void;
}

export interface EmbeddingsDeps {
  db: Database;
  config: Config;
  clock: Clock;
  logger: Logger;
  events?: EmbeddingEvents;
  /** The backfill's sweep interval and lease (tests shorten the lease). */
  backfillOptions?: Partial<BackfillOptions>;
}

/** The embedding subsystem as doctor and /metrics describe it. */
export interface EmbeddingsStatus {
  provider: Config['EMBEDDINGS_PROVIDER'];
  /** The model key current vectors carry; null with the provider `none`. */
  model: string | null;
  /** Memories saved in this process waiting for their vector. */
  pending: number;
  /** The last provider failure while its cooldown lasts (searches are lexical meanwhile). */
  providerFailure: string | null;
  backfill: BackfillProgress | null;
  cache: { owners: number; bytes: number };
  /** EMBEDDINGS_SWEEP_MS: a memory without a current vector for much longer means no process embeds. */
  sweepMs: number;
}

export interface Embeddings {
  /** The semantic candidates of a search (semantic-index.ts). */
  index: SemanticIndex;
  /** Memories of the org whose save, import or text change has committed: embedded in the background (the request never waits). */
  memoriesWritten(org: OrgScope, memoryIds: readonly string[]): void;
  /** Memories of the org whose text changed or that were deleted here: their vectors leave this process's semantic cache at once (other replicas' at their next whole reload, within EMBEDDINGS_RELOAD_MS). */
  memoriesForgotten(org: OrgScope, memoryIds: readonly string[]): void;
  /** The backfill and sweep; null with the provider `none`. */
  backfill: EmbeddingBackfill | null;
  status(): EmbeddingsStatus;
  /** Memories of every org without a current vector (doctor, /metrics), or only those last written before `updatedBefore`; 0 with the provider `none`. */
  missing(updatedBefore?: Date): Promise<number>;
  /** Loads the local model in its thread and starts the backfill (the server does; tests that need vectors too). */
  start(): void;
  /** Resolves once no memory saved in this process waits for its vector (tests and operations wait for this, never a sleep). */
  idle(): Promise<void>;
  /** Stops the backfill, leaves what is queued to the next sweep, ends the worker thread. */
  close(): Promise<void>;
}

/** The backfill's lease: long enough for a batch of 64 memories on a slow provider, renewed every third. */
const BACKFILL_LEASE_MS = 60_000;

/**
 * The embedding subsystem (docs/architecture.md#embeddings): the provider EMBEDDINGS_PROVIDER
 * names, the queue that embeds saved memories after their commit, the backfill and sweep, and
 * the semantic index searches ask for candidates. A provider outage turns the semantic leg
 * off for a cooldown; saves and lexical search never notice.
 */
export function createEmbeddings(deps: EmbeddingsDeps): Embeddings {
  const { db, config, clock, logger, events } = deps;
  const worker = createComputeWorker();
  const provider: EmbeddingProvider | null = providerFromConfig(config, worker);
  const health = createProviderHealth();
  const index = createSemanticIndex({
    db,
    provider,
    worker,
    health,
    logger,
    settings: { cacheBytes: config.EMBEDDINGS_CACHE_BYTES, reloadMs: config.EMBEDDINGS_RELOAD_MS, queryDeadlineMs: config.EMBEDDINGS_QUERY_DEADLINE_MS },
  });
  const queue = provider
    ? createEmbeddingQueue({
        db,
        provider,
        health,
        logger,
        onBatch: (batch, lags) => events?.stored(batch, lags),
        onStored: (org) => index.stored(org),
        onFailure: () => events?.failed(),
      })
    : null;
  const backfill = provider
    ? createEmbeddingBackfill({
        db,
        provider,
        health,
        clock,
        logger,
        options: { sweepMs: config.EMBEDDINGS_SWEEP_MS, leaseMs: BACKFILL_LEASE_MS, ...deps.backfillOptions },
        onBatch: (batch) => events?.stored(batch, []),
        onStored: (org) => index.stored(org as OrgScope),
      })
    : null;
  let started = false;

  return {
    index,
    memoriesWritten: (org, ids) => queue?.enqueue(org, ids),
    memoriesForgotten: (org, ids) => index.forget(org, ids),
    backfill,
    status: () => ({
      provider: config.EMBEDDINGS_PROVIDER,
      model: provider?.model ?? null,
      pending: queue?.pending() ?? 0,
      providerFailure: health.lastFailure(),
      backfill: backfill?.progress() ?? null,
      cache: index.usage(),
      sweepMs: config.EMBEDDINGS_SWEEP_MS,
    }),
    missing: (updatedBefore) => backfill?.missing(updatedBefore) ?? Promise.resolve(0),
    start() {
      if (started || !provider) return;
      started = true;
      if (provider.name === 'local') {
        const loading = performance.now();
        worker.warm().then(
          () => logger.info({ model: provider.model, load_ms: Math.round(performance.now() - loading) }, 'embedding model loaded'),
          (error: unknown) => logger.error({ error: errorForLog(error) }, 'the embedding model did not load; search stays lexical until it does'),
        );
      }
      backfill?.start();
    },
    idle: () => queue?.idle() ?? Promise.resolve(),
    async close() {
      await backfill?.stop();
      await queue?.close();
      index.close();
      await worker.close();
    },
  };
}
