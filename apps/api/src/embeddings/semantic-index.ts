import { embeddableLanguage, ownerMemoryVectors, type Database, type OrgScope, type OwnerScope, type ScopeFilter } from '@memory-bank/db';
import type { Logger } from 'pino';
import { errorForLog } from '../logger';
import type { ComputeWorker } from './compute-worker-client';
import { toInt8 } from './int8';
import { OwnerMatrix } from './owner-matrix';
import type { EmbeddingProvider, SimilarityCalibration } from './embedding-provider';
import type { ProviderHealth } from './provider-health';

/** A memory found by meaning: its id and the cosine of its vector with the query's (−1…1). */
export interface SemanticCandidate {
  memoryId: string;
  similarity: number;
}

export interface SemanticIndex {
  /**
   * The owners' memories nearest to the query, best first, at most k — `user`: the scope's
   * user's private memories; `org`: the org's shared ones; `all`: both (as search scopes
   * them). Null when the semantic leg is off for this query: no provider, a language the
   * model does not serve, the provider down or slower than the query deadline. Ids may name
   * memories deleted, expired or replaced since: the caller reads the rows again with the
   * owner filter.
   */
  nearest(scope: OwnerScope, filter: ScopeFilter, query: string, k: number): Promise<SemanticCandidate[] | null>;
  /** The model's similarity scale: what unrelated texts reach (floor) and what says the same thing (ceiling). */
  readonly calibration: SimilarityCalibration;
}

export interface SemanticIndexSettings {
  /** EMBEDDINGS_CACHE_BYTES: what the matrices may take together. */
  cacheBytes: number;
  /** EMBEDDINGS_RELOAD_MS: a cached owner is read again whole this often. */
  reloadMs: number;
  /** EMBEDDINGS_QUERY_DEADLINE_MS. */
  queryDeadlineMs: number;
}

/** A cached owner is brought up to date (vectors written since, by any replica) at most this often. */
const DELTA_EVERY_MS = 1_000;
/** A delta load starts this long before the newest vector it read: writes commit a little after their embedded_at. */
const DELTA_MARGIN_MS = 3_000;
/** An owner not searched for this many reload intervals leaves the cache. */
const IDLE_RELOADS = 5;
/** Query vectors remembered (agents repeat queries). */
const QUERY_VECTORS = 256;
const WARN_EVERY_MS = 30_000;

/** The database's DATETIME text `ms` before `text` (ownerMemoryVectors' embeddedAt). */
function textBefore(text: string, ms: number): string {
  const at = new Date(`${text.slice(0, 23).replace(' ', 'T')}Z`).getTime() - ms;
  return new Date(at).toISOString().slice(0, 23).replace('T', ' ');
}

export type OwnerMatrices = ReturnType<typeof createSemanticIndex>;

/**
 * Cosine search over per-owner int8 matrices (owner-matrix.ts), held in a byte-bounded LRU
 * cache and scanned in the worker thread. Freshness: vectors this process stores mark their
 * org's matrices stale (read at the next search); every DELTA_EVERY_MS a search reads what
 * any replica wrote since the matrix's newest vector (less a margin); every reloadMs a timer
 * reads each cached owner again whole, beside the searches (they keep the old matrix until the
 * new one is in), so a memory another replica deleted stays at most about that long; an owner
 * not searched for IDLE_RELOADS of those leaves the cache. A memory whose text changes here
 * leaves at once (forget).
 */
export function createSemanticIndex(deps: { db: Database; provider: EmbeddingProvider | null; worker: ComputeWorker; health: ProviderHealth; logger: Logger; settings: SemanticIndexSettings }) {
  const { db, provider, worker, health, logger, settings } = deps;
  const matrices = new Map<string, OwnerMatrix>();
  const loads = new Map<string, Promise<OwnerMatrix>>();
  /** Whole reloads running beside the searches, with the memories forgotten meanwhile (their rows may be in what the reload read). */
  const reloads = new Map<string, Set<string>>();
  const queryVectors = new Map<string, Int8Array | null>();
  /** Whose each cached matrix is (to read it again) and when it was last searched. */
  const owners = new Map<string, { scope: OwnerScope; which: 'user' | 'org'; model: string; searchedAt: number }>();
  let warnedAt = -Infinity;
  let closed = false;

  // Every cached owner is read again whole once its matrix is reloadMs old, searched or not
  // (so what another replica deleted leaves every replica's memory), until it has not been
  // searched for IDLE_RELOADS of those: then it leaves the cache.
  const upkeep = setInterval(() => {
    const now = performance.now();
    for (const [key, owner] of owners) {
      const matrix = matrices.get(key);
      if (loads.has(key)) continue;
      if (!matrix || now - owner.searchedAt > settings.reloadMs * IDLE_RELOADS) {
        matrices.delete(key);
        owners.delete(key);
      } else if (now - matrix.loadedAt > settings.reloadMs) reloadBehind(owner.scope, owner.which, owner.model, key);
    }
  }, Math.max(250, settings.reloadMs / 4));
  upkeep.unref();

  const keyOf = (scope: OwnerScope, which: 'user' | 'org') => `${scope.orgId}/${which === 'user' ? scope.userId : scope.orgId}`;
  const bytes = () => [...matrices.values()].reduce((sum, matrix) => sum + matrix.bytes, 0);

  function remember(text: string, vector: Int8Array | null): void {
    queryVectors.delete(text);
    queryVectors.set(text, vector);
    if (queryVectors.size > QUERY_VECTORS) queryVectors.delete(queryVectors.keys().next().value!);
  }

  /** The query's vector, or null when the provider does not answer within the deadline (it is remembered when it comes). */
  async function queryVector(model: EmbeddingProvider, text: string): Promise<Int8Array | null> {
    if (queryVectors.has(text)) {
      const known = queryVectors.get(text)!;
      remember(text, known);
      return known;
    }
    const embedding = model.embed([text]).then(([vector]) => toInt8(vector!));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), settings.queryDeadlineMs)));
    try {
      const result = await Promise.race([embedding, late]);
      if (result !== 'late') {
        health.succeeded();
        remember(text, result);
        return result;
      }
      // Too slow for this search; a hung provider trips the cooldown when its own timeout ends.
      embedding.then(
        (vector) => {
          health.succeeded();
          remember(text, vector);
        },
        (error: unknown) => health.failed(error),
      );
      return null;
    } catch (error) {
      health.failed(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async function loadWhole(scope: OwnerScope, which: 'user' | 'org', model: string): Promise<OwnerMatrix> {
    const rows = await ownerMemoryVectors(db, scope, which, model);
    const matrix = new OwnerMatrix(rows[0]?.vector.length ?? 0, rows.length, performance.now());
    for (const row of rows) matrix.put(row.memoryId, row.vector, row.embeddedAt);
    return matrix;
  }

  /**
   * An owner due for its whole reload (which drops what other replicas deleted) is read again
   * beside the searches, which keep using its matrix until the new one is in.
   */
  function reloadBehind(scope: OwnerScope, which: 'user' | 'org', model: string, key: string): void {
    if (reloads.has(key)) return;
    const forgotten = new Set<string>();
    reloads.set(key, forgotten);
    loadWhole(scope, which, model)
      .then(
        (fresh) => {
          for (const id of forgotten) fresh.remove(id);
          if (!closed && matrices.has(key)) matrices.set(key, fresh);
        },
        (error: unknown) => logger.warn({ error: errorForLog(error) }, 'semantic cache reload failed; it is tried again shortly'),
      )
      .finally(() => reloads.delete(key));
  }

  /** The owner's matrix, loaded whole or brought up to date as its age asks. */
  async function matrixOf(scope: OwnerScope, which: 'user' | 'org', model: string): Promise<OwnerMatrix> {
    const key = keyOf(scope, which);
    const now = performance.now();
    owners.set(key, { scope, which, model, searchedAt: now });
    const inFlight = loads.get(key);
    if (inFlight) return inFlight;
    const cached = matrices.get(key);
    const due = !cached || cached.fragmented ? 'whole' : cached.stale || now - cached.checkedAt > DELTA_EVERY_MS ? 'delta' : null;
    if (cached && due === null) {
      matrices.delete(key);
      matrices.set(key, cached);
      return cached;
    }
    const load = (async () => {
      let matrix = due === 'delta' ? cached : undefined;
      if (matrix) {
        matrix.stale = false;
        matrix.checkedAt = performance.now();
        const since = matrix.watermark === null ? undefined : textBefore(matrix.watermark, DELTA_MARGIN_MS);
        const rows = await ownerMemoryVectors(db, scope, which, model, since);
        // An owner loaded without vectors learns their size from the first ones.
        if (matrix.dims === 0 && rows.length > 0) matrix = undefined;
        else for (const row of rows) matrix.put(row.memoryId, row.vector, row.embeddedAt);
      }
      matrix ??= await loadWhole(scope, which, model);
      // A whole reload that finished meanwhile (reloadBehind) is newer than this delta's matrix.
      const reloaded = matrices.get(key);
      if (reloaded && cached && reloaded !== cached && reloaded.loadedAt > cached.loadedAt) return reloaded;
      matrices.delete(key);
      if (!closed) matrices.set(key, matrix);
      // Least recently searched owners leave first; the one just used stays even alone over the budget.
      for (let total = bytes(); total > settings.cacheBytes && matrices.size > 1; total = bytes()) {
        const oldest = matrices.keys().next().value!;
        if (oldest === key) break;
        matrices.delete(oldest);
      }
      return matrix;
    })().finally(() => loads.delete(key));
    loads.set(key, load);
    return load;
  }

  const index = {
    calibration: provider?.calibration ?? { floor: 0, ceiling: 1 },
    async nearest(scope: OwnerScope, filter: ScopeFilter, query: string, k: number): Promise<SemanticCandidate[] | null> {
      if (!provider || closed || k <= 0 || query.trim() === '') return null;
      if (!provider.serves(embeddableLanguage(query)) || !health.available()) return null;
      try {
        const whose = filter === 'all' ? (['user', 'org'] as const) : [filter];
        const held = (await Promise.all(whose.map((which) => matrixOf(scope, which, provider.model)))).filter((matrix) => matrix.size > 0);
        // Owners without vectors (nothing saved yet, or nothing the model serves): no query to embed.
        if (held.length === 0) return [];
        const vector = await queryVector(provider, query);
        if (!vector) return null;
        const found: SemanticCandidate[] = [];
        for (const matrix of held) {
          if (matrix.dims !== vector.length) continue;
          const { ids } = matrix;
          const scanned = await worker.nearest({ query: vector, rows: matrix.rows, norms: matrix.norms, count: matrix.count, dims: matrix.dims, k });
          scanned.rows.forEach((row, i) => {
            const memoryId = ids[row];
            if (memoryId) found.push({ memoryId, similarity: scanned.similarities[i]! });
          });
        }
        return found.sort((a, b) => b.similarity - a.similarity).slice(0, k);
      } catch (error) {
        if (performance.now() - warnedAt > WARN_EVERY_MS) {
          warnedAt = performance.now();
          logger.warn({ error: errorForLog(error) }, 'semantic search failed; answering lexically');
        }
        return null;
      }
    },
    /** New vectors of the org were stored here: its cached owners read them at their next search. */
    stored(org: OrgScope): void {
      for (const [key, matrix] of matrices) if (key.startsWith(`${org.orgId}/`)) matrix.stale = true;
    },
    /** Memories of the org whose text changed or that were deleted here: out of every cached matrix at once. */
    forget(org: OrgScope, memoryIds: readonly string[]): void {
      for (const [key, matrix] of matrices) if (key.startsWith(`${org.orgId}/`)) for (const id of memoryIds) matrix.remove(id);
      for (const [key, forgotten] of reloads) if (key.startsWith(`${org.orgId}/`)) for (const id of memoryIds) forgotten.add(id);
    },
    /** What the cache holds (metrics, doctor). */
    usage: () => ({ owners: matrices.size, bytes: bytes() }),
    close(): void {
      closed = true;
      clearInterval(upkeep);
      owners.clear();
      matrices.clear();
      queryVectors.clear();
    },
  };
  return index;
}
