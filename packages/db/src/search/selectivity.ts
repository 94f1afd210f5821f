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
