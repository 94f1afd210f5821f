import { afterAll, describe, expect, it } from 'vitest';
import { createComputeWorker } from '../src/embeddings/compute-worker-client';
import { toInt8 } from '../src/embeddings/int8';
import { OwnerMatrix } from '../src/embeddings/owner-matrix';
import { seeded } from '../../../packages/db/test/support/samples';

/*
 * The worker thread's cosine scan (compute-worker.mjs, unrolled) against the plain cosine of
 * the stored int8 vectors, over a matrix that grew and had rows emptied; and int8 keeps the
 * neighbours float32 finds.
 */
const worker = createComputeWorker();
afterAll(() => worker.close());

const randomVector = (random: () => number, dims: number) => Float32Array.from({ length: dims }, () => random() * 2 - 1);

/** The plain cosine of two vectors. */
function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

/** The reference: every live vector's cosine with the query, best first. */
function plainNearest(query: Int8Array, vectors: Map<string, Int8Array>, k: number): { memoryId: string; similarity: number }[] {
  return [...vectors]
    .map(([memoryId, vector]) => ({ memoryId, similarity: cosine(query, vector) }))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, k);
}

describe('the semantic scan', () => {
  it('finds what the plain cosine finds, over a grown matrix with emptied and replaced rows', async () => {
    const random = seeded(44);
    const dims = 37;
    const matrix = new OwnerMatrix(dims, 10, 0);
    const live = new Map<string, Int8Array>();
    for (let i = 0; i < 500; i++) {
      const vector = toInt8(randomVector(random, dims))!;
      matrix.put(`mem_${i}`, new Uint8Array(vector.buffer), '2026-01-01 00:00:00.000');
      live.set(`mem_${i}`, vector);
    }
    for (let i = 0; i < 500; i += 7) {
      matrix.remove(`mem_${i}`);
      live.delete(`mem_${i}`);
    }
    for (let i = 1; i < 500; i += 11) {
      if (!live.has(`mem_${i}`)) continue;
      const vector = toInt8(randomVector(random, dims))!;
      matrix.put(`mem_${i}`, new Uint8Array(vector.buffer), '2026-01-01 00:00:01.000');
      live.set(`mem_${i}`, vector);
    }
    expect(matrix.size).toBe(live.size);
    for (let q = 0; q < 5; q++) {
      const query = toInt8(randomVector(random, dims))!;
      const scanned = await worker.nearest({ query, rows: matrix.rows, norms: matrix.norms, count: matrix.count, dims, k: 10 });
      const found = [...scanned.rows].map((row, i) => ({ memoryId: matrix.ids[row]!, similarity: scanned.similarities[i]! }));
      const expected = plainNearest(query, live, 10);
      expect(found.map((hit) => hit.memoryId)).toEqual(expected.map((hit) => hit.memoryId));
      found.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(expected[i]!.similarity, 5));
    }
  });

  it('int8 keeps the top 5 that float32 finds', () => {
    const random = seeded(7);
    const dims = 512;
    const floats = Array.from({ length: 1000 }, () => randomVector(random, dims));
    const query = randomVector(random, dims);
    const byFloat = floats.map((vector, i) => ({ i, s: cosine(query, vector) })).sort((a, b) => b.s - a.s);
    const quantised = new Map(floats.map((vector, i) => [String(i), toInt8(vector)!]));
    const byInt8 = plainNearest(toInt8(query)!, quantised, 5).map((hit) => Number(hit.memoryId));
    expect(byInt8).toEqual(byFloat.slice(0, 5).map((hit) => hit.i));
  });
});
