import { memoriesToEmbed, type Database, type OrgScope } from '@memory-bank/db';
import type { Logger } from 'pino';
import { errorForLog } from '../logger';
import { embedMemories, type EmbeddedBatch } from './embed-memories';
import type { EmbeddingProvider } from './embedding-provider';
import type { ProviderHealth } from './provider-health';

/** Memories embedded per provider call. */
const BATCH_MEMORIES = 32;
/** Memories waiting at most; past it, saves are left to the sweep (a provider far behind or down). */
const MAX_PENDING = 10_000;
/** At most one warning of a failing provider this often (no log flood during an outage). */
const WARN_EVERY_MS = 30_000;

export interface EmbeddingQueueDeps {
  db: Database;
  provider: EmbeddingProvider;
  health: ProviderHealth;
  logger: Logger;
  /** Hears each batch stored, with the seconds from each embedded memory's save to its vector. */
  onBatch?(batch: EmbeddedBatch, lagSeconds: readonly number[]): void;
  /** Hears that the org has new vectors (the semantic index reads them at its next search). */
  onStored?(org: OrgScope): void;
  onFailure?(): void;
}

export type EmbeddingQueue = ReturnType<typeof createEmbeddingQueue>;

/**
 * Memories saved or changed in this process, embedded in the background after their
 * transaction committed: the save's request never waits for the model. Whatever arrives
 * while a batch is embedded goes in the next one. A batch that fails (provider down) is
 * dropped — the periodic sweep (backfill.ts) embeds those memories later — and while the
 * provider is in its cooldown, batches are dropped without calling it.
 */
export function createEmbeddingQueue(deps: EmbeddingQueueDeps) {
  const { db, provider, health, logger } = deps;
  /** Per org, memory id → when it was queued (performance.now()). */
  const pending = new Map<string, { org: OrgScope; ids: Map<string, number> }>();
  let size = 0;
  let running: Promise<void> | undefined;
  let closed = false;
  let idleWaiters: (() => void)[] = [];
  let warnedAt = -Infinity;

  function takeBatch(): { org: OrgScope; ids: [string, number][] } | undefined {
    const first = pending.values().next();
    if (first.done) return undefined;
    const { org, ids } = first.value;
    const batch = [...ids.entries()].slice(0, BATCH_MEMORIES);
    for (const [id] of batch) ids.delete(id);
    if (ids.size === 0) pending.delete(org.orgId);
    size -= batch.length;
    return { org, ids: batch };
  }

  async function drain(): Promise<void> {
    for (let batch = takeBatch(); batch && !closed; batch = takeBatch()) {
      if (!health.available()) continue;
      try {
        const memories = await memoriesToEmbed(db, batch.org, provider.model, batch.ids.map(([id]) => id));
        const stored = await embedMemories(db, provider, batch.org, memories);
        health.succeeded();
        const now = performance.now();
        deps.onBatch?.(
          stored,
          batch.ids.filter(([id]) => memories.some((memory) => memory.id === id)).map(([, queuedAt]) => (now - queuedAt) / 1000),
        );
        if (stored.embedded + stored.notServed > 0) deps.onStored?.(batch.org);
      } catch (error) {
        health.failed(error);
        deps.onFailure?.();
        if (performance.now() - warnedAt > WARN_EVERY_MS) {
          warnedAt = performance.now();
          logger.warn({ provider: provider.name, model: provider.model, error: errorForLog(error) }, 'embedding failed; the memories are embedded by the next sweep');
        }
      }
    }
  }

  function kick(): void {
    if (running || size === 0 || closed) return;
    running = drain().finally(() => {
      running = undefined;
      if (size > 0 && !closed) kick();
      else {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const wake of waiters) wake();
      }
    });
  }

  return {
    /** Queues memories of the org whose save or change has committed. */
    enqueue(org: OrgScope, ids: readonly string[]): void {
      if (closed || ids.length === 0) return;
      const entry = pending.get(org.orgId) ?? { org, ids: new Map<string, number>() };
      pending.set(org.orgId, entry);
      const now = performance.now();
      for (const id of ids) {
        if (entry.ids.has(id) || size >= MAX_PENDING) continue;
        entry.ids.set(id, now);
        size += 1;
      }
      if (entry.ids.size === 0) pending.delete(org.orgId);
      kick();
    },
    /** Memories waiting (metrics). */
    pending: (): number => size,
    /** Resolves once nothing is queued or being embedded (tests, shutdown). */
    idle(): Promise<void> {
      if (!running && size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /** Stops: what is queued is left to the sweep; the batch being embedded finishes. */
    async close(): Promise<void> {
      closed = true;
      pending.clear();
      size = 0;
      await running;
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const wake of waiters) wake();
    },
  };
}
