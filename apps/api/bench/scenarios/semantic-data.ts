import type { Pool } from 'mysql2/promise';
import { createComputeWorker } from '../../src/embeddings/compute-worker-client';
import { toInt8 } from '../../src/embeddings/int8';
import { LOCAL_MODEL_KEY, createLocalProvider } from '../../src/embeddings/provider';
import { searchQueries } from '../corpus';
import type { Tenant } from '../seed';

// The semantic scenario's data: its owners' vectors, its queries, and what it reads back
// from the database (whether every memory has its vector, and how long each took).

const VECTOR_CHUNK = 2000;
/** How long the scenario waits for the service to embed what was saved. */
export const WAIT_MS = 120_000;

/**
 * Queries as an agent types them, from the owner's own words (searchQueries' pairs of a
 * common and a rarer word): half questions in other words, half identifiers (snake_case,
 * camelCase, a ticket number). None repeats, here or in `seen`.
 */
export function agentQueries(texts: readonly string[], count: number, seed: number, seen: Set<string>): string[] {
  const shapes = [
    (a: string, b: string) => `what did we decide about ${b} and ${a}?`,
    (a: string, b: string) => `${a}_${b}`,
    (a: string, b: string) => `how should I handle the ${b} when ${a} breaks`,
    (a: string, b: string) => `${a}${b[0]!.toUpperCase()}${b.slice(1)}`,
    (a: string, b: string) => `anything noted on ${a} ${b} last time`,
    (_: string, b: string, i: number) => `${b.toUpperCase()}-${100 + (i % 900)}`,
  ];
  const queries: string[] = [];
  for (const [i, pair] of searchQueries(texts, count * 3, seed).entries()) {
    const [a, b] = pair.split(' ') as [string, string];
    const query = shapes[i % shapes.length]!(a, b, i);
    if (seen.has(query)) continue;
    seen.add(query);
    queries.push(query);
    if (queries.length === count) return queries;
  }
  throw new Error(`semantic: only ${queries.length} distinct queries of ${count}`);
}

/**
 * Vectors for every seeded memory without embedding each one (20,000 would take the model
 * minutes): the model embeds the owner's first `distinct` texts once, in this process, and
 * the row at position k (id order, which is the texts' order) gets the vector of text
 * k mod `distinct`, stored as the service stores vectors (int8, the model's key, the row's
 * own content key). A scan costs the same whichever vectors the rows hold. Each is stored as
 * embedded when its memory was saved (embedded_at = created_at), as the service's vectors are:
 * written in one instant, every delta load of the index would read them all again.
 */
export async function assignVectors(pool: Pool, tenants: readonly Tenant[], distinct: number): Promise<void> {
  const worker = createComputeWorker();
  try {
    const provider = createLocalProvider(worker);
    for (const tenant of tenants) {
      const vectors = (await provider.embed(tenant.texts.slice(0, distinct))).map((vector) => {
        const int8 = toInt8(vector)!;
        return Buffer.from(int8.buffer, int8.byteOffset, int8.byteLength);
      });
      const [rows] = (await pool.query('SELECT id, content_key, created_at FROM memory WHERE org_id = ? ORDER BY id', [tenant.orgId])) as unknown as [{ id: string; content_key: string; created_at: Date }[]];
      for (let offset = 0; offset < rows.length; offset += VECTOR_CHUNK) {
        const values = rows
          .slice(offset, offset + VECTOR_CHUNK)
          .map((row, i) => [tenant.orgId, row.id, tenant.userId, LOCAL_MODEL_KEY, row.content_key, vectors[(offset + i) % vectors.length], row.created_at]);
        await pool.query('INSERT INTO memory_vectors (org_id, memory_id, owner_id, model, content_key, vector, embedded_at) VALUES ?', [values]);
      }
    }
  } finally {
    await worker.close();
  }
}

/** Waits until every memory of the org has its vector row: false at the deadline. */
export async function allEmbedded(pool: Pool, orgId: string): Promise<boolean> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const [[row]] = (await pool.query(
      'SELECT COUNT(*) AS n FROM memory m LEFT JOIN memory_vectors v ON v.org_id = m.org_id AND v.memory_id = m.id WHERE m.org_id = ? AND v.memory_id IS NULL',
      [orgId],
    )) as unknown as [[{ n: number }]];
    if (Number(row.n) === 0) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Save (memory.created_at, stamped just before its transaction) → vector stored (memory_vectors.embedded_at), µs, for the org's memories saved since `since`. */
export async function embeddingLags(pool: Pool, orgId: string, since: Date): Promise<number[]> {
  const [rows] = (await pool.query(
    'SELECT TIMESTAMPDIFF(MICROSECOND, m.created_at, v.embedded_at) AS lag FROM memory m JOIN memory_vectors v ON v.org_id = m.org_id AND v.memory_id = m.id WHERE m.org_id = ? AND m.created_at >= ?',
    [orgId, since],
  )) as unknown as [{ lag: number }[]];
  return rows.map((row) => Number(row.lag));
}
