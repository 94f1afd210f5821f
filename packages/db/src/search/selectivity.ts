import type { SearchQuery } from './query';
import { wordDocs } from './rank';
import type { OwnersStats } from './stats';

/**
 * Which query words are too common to look up in the FULLTEXT index for one owner. InnoDB
 * scores every row a word's posting list holds before the candidates are cut, so a word
 * in a large share of a large owner's memories makes a search cost what the owner holds.
 * Such a word still ranks the candidates (rank.ts); it only does not choose them.
 */
export const COMMON_WORD = {
  /** A word is common when this many of the owner's memories hold it… */
  minDocs: 500,
  /** …and this share of them. */
  share: 0.05,
} as const;

/** The words of `query` common among the owners' memories (stats), by their text. */
export function commonWords(query: SearchQuery, stats: OwnersStats): Set<string> {
  const bound = Math.max(COMMON_WORD.minDocs, stats.docs * COMMON_WORD.share);
  return new Set(query.words.filter((word) => wordDocs(word, stats) >= bound).map((word) => word.text));
}

/**
 * The `count` words of `query` rarest among the owners' memories (earlier words first among
 * equals), without phrases: what a long text, such as a memory's own, is searched by when
 * the question is which memories are much like it.
 */
export function mostDistinctive(query: SearchQuery, stats: OwnersStats, count: number): SearchQuery {
  if (query.words.length <= count && query.phrases.length === 0) return query;
  const ranked = query.words.map((word, i) => ({ word, i, docs: wordDocs(word, stats) })).sort((a, b) => a.docs - b.docs || a.i - b.i);
  const kept = new Set(ranked.slice(0, count).map(({ i }) => i));
  return { words: query.words.filter((_, i) => kept.has(i)), phrases: [] };
}
