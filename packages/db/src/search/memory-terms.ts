import { analyseText, type AnalysedWord } from './analyze';
import { evidentLanguage, stemOf, type StemLanguage } from './language';
import type { SearchTag } from './terms';

/**
 * What a memory's `search_terms` column holds, under its owner's tag T (terms.ts):
 *
 *   T<word> …     every word, in the content's order (so BOOLEAN MODE phrase search
 *                 "T<w1> T<w2>" stays inside the owner's posting lists)
 *   sT<stem> …    the Snowball stem of each word, in the memory's evident language
 *   pT<part> …    the parts of identifiers (`OrderSync` → order, sync)
 *
 * The three families have different tags, so an exact word, a stem and a part are
 * different FULLTEXT tokens: retrieval can ask for each, and ranking can weigh them.
 * The per-owner statistics use the same families as one-letter prefixes: `w`, `s`, `p`.
 */

/**
 * The version of the format above; rows written before it are re-indexed (reindex.ts).
 * Any change to what this module produces (tokens, stems, language detection) must bump
 * it: a memory's terms are subtracted from the statistics by computing them again.
 */
export const SEARCH_TERMS_VERSION = 1;

export type TermFamily = 'w' | 's' | 'p';

/** The FULLTEXT tag of a family's tokens for an owner. */
export function familyTag(family: TermFamily, owner: SearchTag): string {
  return family === 'w' ? owner : family + owner;
}

/** Term → occurrences in one memory; terms are family letter + word (`wdeploy`, `sdeploy`, `porder`). */
export type TermCounts = Map<string, number>;

export interface MemoryTerms {
  /** The value of the search_terms column. */
  searchTerms: string;
  /** What the memory adds to its owner's statistics. */
  counts: TermCounts;
  /** Words in the memory (BM25's document length). */
  length: number;
}

export interface AnalysedMemory {
  words: AnalysedWord[];
  language: StemLanguage;
}

export function analyseMemory(content: string): AnalysedMemory {
  const words = analyseText(content);
  return { words, language: evidentLanguage(words) };
}

function add(counts: TermCounts, term: string): void {
  counts.set(term, (counts.get(term) ?? 0) + 1);
}

/** The search terms of a memory owned by `owner`, and its contribution to the owner's statistics. */
export function memorySearchTerms(owner: SearchTag, content: string): MemoryTerms {
  const { words, language } = analyseMemory(content);
  const counts: TermCounts = new Map();
  const exact: string[] = [];
  for (const word of words) {
    exact.push(owner + word.text);
    add(counts, `w${word.text}`);
    const stem = stemOf(word.text, language);
    if (stem !== null) add(counts, `s${stem}`);
    // Parts are matched as written: a stem of a part would make every part match rank as a stem match.
    for (const part of word.parts) add(counts, `p${part.text}`);
  }
  // Stems and parts de-duplicated: ranking reads their frequency from the statistics and
  // the words, and the column stays smaller.
  const others: string[] = [];
  for (const term of counts.keys()) {
    if (term[0] !== 'w') others.push(familyTag(term[0] as TermFamily, owner) + term.slice(1));
  }
  return { searchTerms: [...exact, ...others].join(' '), counts, length: words.length };
}
