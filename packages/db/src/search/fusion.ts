import type { Ranked } from './rank';

/**
 * One ranking from two legs: the lexical one (rank.ts: BM25 over the owner's statistics,
 * a score that is the share of the best conceivable match of the query's words) and the
 * semantic one (cosine similarity of the query's and the memories' embeddings). The
 * similarity is mapped onto the lexical scale, and a memory scores the better of the two:
 * a memory that holds the query's words keeps its lexical score, one that only says the
 * same thing in other words rises by its meaning alone, and keyword noise (a memory that
 * shares one word of a paraphrase) does not add to a meaning match elsewhere, as a sum or
 * a reciprocal-rank fusion would make it (docs/adr/0011-fused-ranking.md).
 */

/** A memory near the query by meaning. */
export interface SemanticHit {
  memoryId: string;
  /**
   * How close in meaning, 0–1: the embedding model's cosine similarity mapped through that
   * model's calibration (0 at or below what unrelated texts reach, 1 at what says the same).
   */
  closeness: number;
}

/**
 * What the closest meaning scores on the lexical scale: as much as a memory matching about
 * half of the query's weight in words, so a memory that holds the query's words outranks one
 * that only means something like it, and a paraphrase outranks keyword noise.
 */
export const SEMANTIC_SCORE_CAP = 0.45;

/** A closeness on the lexical scale. */
export function semanticScore(closeness: number): number {
  return Math.max(0, Math.min(1, closeness)) * SEMANTIC_SCORE_CAP;
}

export interface Fused<T> extends Ranked<T> {
  /** The semantic leg placed it (its meaning scored above its words). */
  semantic: boolean;
}

/**
 * The best `limit` of the candidates (`rows`, by id) fused from their lexical ranking (the
 * ones that matched some word, rank order) and the semantic hits (null: lexical only). A hit
 * that is not among the candidates was not re-read under the search's scope and filters,
 * and is left out.
 */
export function fuseRankings<T extends { id: string }>(
  lexical: readonly Ranked<T>[],
  semantic: readonly SemanticHit[] | null,
  rows: ReadonlyMap<string, T>,
  limit: number,
): Fused<T>[] {
  if (semantic === null || semantic.length === 0) return lexical.slice(0, limit).map((ranked) => ({ ...ranked, semantic: false }));
  const fused: { ranked: Fused<T>; order: number }[] = lexical.map((ranked, order) => ({ ranked: { ...ranked, semantic: false }, order }));
  const byWords = new Map(fused.map((entry) => [entry.ranked.row.id, entry]));
  for (const hit of semantic) {
    const meaning = semanticScore(hit.closeness);
    const entry = byWords.get(hit.memoryId);
    if (entry) {
      if (meaning > entry.ranked.score) entry.ranked = { ...entry.ranked, score: round(meaning), semantic: true };
      continue;
    }
    const row = rows.get(hit.memoryId);
    if (row && meaning > 0) {
      fused.push({ ranked: { row, score: round(meaning), matched: [], corrected: [], match: { terms: [], corrections: [], phrases: [] }, semantic: true }, order: fused.length });
    }
  }
  fused.sort((a, b) => b.ranked.score - a.ranked.score || a.order - b.order);
  return fused.slice(0, limit).map(({ ranked }) => ranked);
}

const round = (score: number) => Math.round(score * 1e4) / 1e4;
