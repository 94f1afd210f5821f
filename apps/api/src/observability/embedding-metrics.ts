import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { EmbeddingEvents, Embeddings } from '../embeddings';

/**
 * A count of memories without a current vector is read at most this often: it is one
 * anti-join per org, so it follows the backfill's sweep (EMBEDDINGS_SWEEP_MS's default), not
 * every scrape.
 */
const MISSING_SAMPLE_MS = 300_000;

/**
 * The embedding subsystem's series (docs/observability.md): which provider and model, how
 * long a save waits for its vector, what the backfill has done, what is still missing, and
 * the semantic cache's size. Returns the events the subsystem reports into.
 */
export function registerEmbeddingMetrics(registry: Registry, embeddings: () => Embeddings): EmbeddingEvents {
  const registers = [registry];
  new Gauge({
    name: 'memory_bank_embeddings_info',
    help: 'The embedding provider and the model key current vectors carry (value 1)',
    labelNames: ['provider', 'model'] as const,
    registers,
    collect() {
      const status = embeddings().status();
      this.reset();
      this.set({ provider: status.provider, model: status.model ?? 'none' }, 1);
    },
  });
  const lag = new Histogram({
    name: 'memory_bank_embedding_lag_seconds',
    help: "From a memory's save (commit) to its stored vector, for memories embedded by this process's queue",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers,
  });
  const stored = new Counter({
    name: 'memory_bank_embeddings_stored_total',
    help: 'Vectors stored (embedded), and memories the model does not serve stored as such (not_served)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const failures = new Counter({ name: 'memory_bank_embedding_failures_total', help: 'Provider calls that failed (the semantic leg is off for a cooldown after one)', registers });
  for (const outcome of ['embedded', 'not_served'] as const) stored.inc({ outcome }, 0);
  new Gauge({
    name: 'memory_bank_embeddings_queue_pending',
    help: 'Memories saved in this process waiting for their vector',
    registers,
    collect() {
      this.set(embeddings().status().pending);
    },
  });
  new Gauge({
    name: 'memory_bank_embedding_backfill',
    help: 'The backfill run in progress or last: running (0/1), orgs_done, orgs_total, embedded',
    labelNames: ['field'] as const,
    registers,
    collect() {
      const progress = embeddings().status().backfill;
      this.reset();
      if (!progress) return;
      this.set({ field: 'running' }, progress.running ? 1 : 0);
      this.set({ field: 'orgs_done' }, progress.orgsDone);
      this.set({ field: 'orgs_total' }, progress.orgsTotal);
      this.set({ field: 'embedded' }, progress.embedded);
    },
  });
  let sampled: { at: number; value: Promise<number | undefined> } | undefined;
  new Gauge({
    name: 'memory_bank_embeddings_missing',
    help: 'Memories of every org without a current vector (the backfill embeds them); read at most every 5 minutes',
    registers,
    async collect() {
      if (!sampled || performance.now() - sampled.at > MISSING_SAMPLE_MS) {
        sampled = { at: performance.now(), value: embeddings().missing().catch(() => undefined) };
      }
      const value = await sampled.value;
      if (value === undefined) this.reset();
      else this.set(value);
    },
  });
  new Gauge({
    name: 'memory_bank_semantic_cache_bytes',
    help: "Bytes the per-owner vector matrices take in this process (EMBEDDINGS_CACHE_BYTES bounds it)",
    registers,
    collect() {
      this.set(embeddings().status().cache.bytes);
    },
  });
  return {
    stored(batch, lagSeconds) {
      if (batch.embedded > 0) stored.inc({ outcome: 'embedded' }, batch.embedded);
      if (batch.notServed > 0) stored.inc({ outcome: 'not_served' }, batch.notServed);
      for (const seconds of lagSeconds) lag.observe(seconds);
    },
    failed: () => failures.inc(),
  };
}
