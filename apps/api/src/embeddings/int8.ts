import { MEMORY_VECTOR_MAX_BYTES } from '@memory-bank/db';

/**
 * A vector as stored and searched: scaled to unit length, then ×127 and rounded to int8
 * (one byte a dimension; keeps the neighbours a float32 search finds). Null when it has no
 * direction (all zeros) or more dimensions than a row holds.
 */
export function toInt8(vector: Float32Array): Int8Array | null {
  if (vector.length === 0 || vector.length > MEMORY_VECTOR_MAX_BYTES) return null;
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  const quantised = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i++) quantised[i] = Math.max(-127, Math.min(127, Math.round((vector[i]! / norm) * 127)));
  return quantised;
}

/** The euclidean norm of an int8 vector (the cosine's denominator, computed once per row). */
export function int8Norm(vector: Int8Array): number {
  let sum = 0;
  for (const value of vector) sum += value * value;
  return Math.sqrt(sum);
}
