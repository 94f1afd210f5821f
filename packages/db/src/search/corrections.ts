import distance from 'damerau-levenshtein';
import { IDEOGRAPHIC, analyseText } from './analyze';
import { STEM_LANGUAGES, evidentLanguages, stemOf } from './language';
import type { QueryWord, SearchQuery } from './query';
import { wordDocs } from './rank';
import type { SpellingDictionary } from './spelling';
import { foldTerm, type OwnersStats } from './stats';

/**
 * Typo correction from each owner's own words. A query word that none of the owners'
 * memories hold (no word, stem or part of theirs) and that no dictionary of the service's
 * languages knows is also searched as the owners' nearest words (Damerau–Levenshtein,
 * optimal string alignment: a swap of neighbours is one edit), which rank below exact and
 * stem matches (rank.ts MATCH_WEIGHTS.correction). The owners' vocabulary is their search
 * statistics' word family, read only for such words, and only the words that begin like
 * the typo (its first letter, or its second: a first-letter swap), of lengths within reach.
 */

export const CORRECTION = {
  /** Words shorter than this are never corrected (too many short words are one edit apart). */
  minChars: 5,
  /** Words of at least this many characters may be two edits away; shorter ones one. */
  twoEditsFromChars: 9,
  /** Query words corrected per search (the rest are searched as written only). */
  maxWords: 4,
  /** Corrections kept per word: the nearest, most used first. */
  perWord: 2,
} as const;

export interface Correction {
  /** The query word as normalised. */
  from: string;
  /** The owners' word it was also searched as. */
  to: string;
}

/** Edits a word of this many characters may be away from its correction. */
export function editsAllowed(word: string): number {
  const chars = Array.from(word).length;
  return chars < CORRECTION.minChars ? 0 : chars < CORRECTION.twoEditsFromChars ? 1 : 2;
}

/** A number: another number is another thing (an order, a port, a year), never its typo. */
const NUMBER = /^\p{N}+$/u;

/** The query words that may be typos: unknown to the owners and to every dictionary, long enough, not numbers. */
export function correctableWords(query: SearchQuery, stats: OwnersStats, dictionary: SpellingDictionary): QueryWord[] {
  return query.words
    .filter((word) => editsAllowed(word.text) > 0 && !IDEOGRAPHIC.test(word.text) && !NUMBER.test(word.text) && wordDocs(word, stats) === 0 && !dictionary.knows(word.text))
    .slice(0, CORRECTION.maxWords);
}

/** A range of the owners' word terms to read: `w` + a first letter, and the lengths (in characters, family letter included) within reach. */
export interface VocabularyRange {
  prefix: string;
  minChars: number;
  maxChars: number;
}

export function vocabularyRanges(words: readonly QueryWord[]): VocabularyRange[] {
  const ranges = new Map<string, VocabularyRange>();
  for (const word of words) {
    const chars = Array.from(foldTerm(word.text));
    const edits = editsAllowed(word.text);
    // The family letter counts in the stored term's length.
    const minChars = chars.length + 1 - edits;
    // A word being typed (the last one) may begin a longer word: that is not a typo, and
    // chooseCorrections must see the longer words to know it.
    const maxChars = word.prefix ? Number.MAX_SAFE_INTEGER : chars.length + 1 + edits;
    for (const first of new Set([chars[0]!, chars[1]!])) {
      const prefix = `w${first}`;
      const known = ranges.get(prefix);
      ranges.set(prefix, known ? { prefix, minChars: Math.min(known.minChars, minChars), maxChars: Math.max(known.maxChars, maxChars) } : { prefix, minChars, maxChars });
    }
  }
  return [...ranges.values()];
}

/** A word term of the owners' vocabulary (`w` + word) and the memories holding it. */
export interface VocabularyTerm {
  term: string;
  docs: number;
}

/**
 * The corrections of each correctable word among the vocabulary read for it: the words the
 * fewest edits away within its bound, most used first. A word that some vocabulary word
 * begins with is being typed, not misspelt (the last word matches as a prefix): none.
 */
export function chooseCorrections(words: readonly QueryWord[], vocabulary: readonly VocabularyTerm[]): Map<string, VocabularyTerm[]> {
  const byWord = new Map<string, VocabularyTerm[]>();
  // Compared folded, as the collation compares; kept as the owners write them (accents).
  const folded = vocabulary.map((entry) => {
    const candidate = foldTerm(entry.term.slice(1));
    return { entry, candidate, first: Array.from(candidate.slice(0, 2))[0] ?? '' };
  });
  for (const word of words) {
    const typed = foldTerm(word.text);
    const bound = editsAllowed(word.text);
    const firsts = new Set(Array.from(typed).slice(0, 2));
    let best = bound + 1;
    let nearest: VocabularyTerm[] = [];
    let begun = false;
    for (const { entry, candidate, first } of folded) {
      // Only the ranges read for this word (vocabularyRanges): another word's are not its neighbours.
      if (!firsts.has(first)) continue;
      if (word.prefix && candidate.startsWith(typed)) {
        begun = true;
        break;
      }
      if (Math.abs(candidate.length - typed.length) > bound) continue;
      const steps = distance(typed, candidate).steps;
      if (steps === 0 || steps > best) continue;
      if (steps < best) {
        best = steps;
        nearest = [];
      }
      nearest.push({ term: entry.term.slice(1), docs: entry.docs });
    }
    if (begun || nearest.length === 0) continue;
    byWord.set(word.text, nearest.sort((a, b) => b.docs - a.docs || (a.term < b.term ? -1 : 1)).slice(0, CORRECTION.perWord));
  }
  return byWord;
}

/**
 * The query with its corrected words' corrections (and their stems, in the query's
 * languages), and the owners' statistics with the corrections' memory counts.
 */
export function withCorrections(query: SearchQuery, stats: OwnersStats, corrections: ReadonlyMap<string, readonly VocabularyTerm[]>): { query: SearchQuery; stats: OwnersStats } {
  if (corrections.size === 0) return { query, stats };
  const languages = [...new Set(['english' as const, ...evidentLanguages(query.words.map((w) => w.text)).filter((l) => STEM_LANGUAGES.includes(l))])];
  const termDocs = new Map(stats.termDocs);
  const words = query.words.map((word) => {
    const found = corrections.get(word.text);
    if (!found) return word;
    for (const { term, docs } of found) termDocs.set(`w${term}`, Math.max(termDocs.get(`w${term}`) ?? 0, docs));
    const corrected = found.map(({ term }) => ({ text: term, stems: [...new Set(languages.map((language) => stemOf(term, language)).filter((stem): stem is string => stem !== null))] }));
    return { ...word, corrections: corrected };
  });
  return { query: { ...query, words }, stats: { ...stats, termDocs } };
}

/** The corrections a query got (its corrected words' nearest corrections). */
export function correctionsOf(query: SearchQuery): Correction[] {
  return query.words.flatMap((word) => (word.corrections ?? []).slice(0, 1).map((c) => ({ from: word.text, to: c.text })));
}

/** `word` (lower case) written like `written`: capitalised or in capitals when it is. */
function inCaseOf(written: string, word: string): string {
  const first = Array.from(written)[0] ?? '';
  if (written.length > 1 && written === written.toUpperCase() && written !== written.toLowerCase()) return word.toUpperCase();
  if (first !== first.toLowerCase()) return (Array.from(word)[0] ?? '').toUpperCase() + Array.from(word).slice(1).join('');
  return word;
}

/** The query as written with each corrected word replaced by its nearest correction; null when nothing was corrected. */
export function correctedQueryText(text: string, corrections: readonly Correction[]): string | null {
  if (corrections.length === 0) return null;
  const to = new Map(corrections.map((c) => [c.from, c.to]));
  let out = '';
  let at = 0;
  for (const word of analyseText(text)) {
    const replacement = to.get(word.text);
    if (replacement === undefined) continue;
    out += text.slice(at, word.start) + inCaseOf(text.slice(word.start, word.end), replacement);
    at = word.end;
  }
  return out + text.slice(at);
}
