import { analyseText, asciiWordAt, forEachAsciiWord, isAscii, mayAsciiRunSplit, type AnalysedWord } from './analyze';
import { familyTag } from './memory-terms';
import { searchTag } from './terms';
import { evidentLanguage, evidentLanguageOfAscii, stemOf, type StemLanguage } from './language';
import { MAX_QUERY_WORDS, type CorrectedWord, type QueryWord, type SearchQuery } from './query';
import { foldTerm, type OwnersStats } from './stats';

/**
 * Re-ranks FULLTEXT candidates with BM25 over the owner's own statistics. Each query
 * word scores by the best way it matches a memory — the word itself, its stem, as a
 * part of an identifier, or as the beginning of a longer word — weighted in that order;
 * a phrase found as written adds a bonus (quoted phrases enough to outrank any
 * bag-of-words match of the same words). A misspelt word's corrections (corrections.ts)
 * match below its stem.
 */

export type MatchKind = 'exact' | 'stem' | 'correction' | 'part' | 'prefix';
/** How much each way of matching counts, relative to the word itself. */
export const MATCH_WEIGHTS: Record<MatchKind, number> = { exact: 1, stem: 0.7, correction: 0.6, part: 0.5, prefix: 0.35 };
/** BM25 term-frequency saturation and length normalisation (the usual values). */
const K1 = 1.2;
const B = 0.75;
/** Phrase bonus, in units of the phrase words' IDF: quoted ones outweigh any repetition of the words (≤ K1 + 1). */
const QUOTED_PHRASE_BONUS = K1 + 1;
const WRITTEN_TOGETHER_BONUS = 0.5;

export interface Highlight {
  /** UTF-16 offsets in the memory's content, [start, end). */
  start: number;
  end: number;
  kind: MatchKind;
}

export interface SearchMatch {
  /** The query words the memory matched, as normalised. */
  terms: string[];
  /** Query words it matched only as their corrections (corrections.ts). */
  corrections: { from: string; to: string }[];
  /** Quoted or written-together query phrases found in the memory as written. */
  phrases: string[];
  highlights: Highlight[];
}

export interface Ranked<T> {
  row: T;
  /** 0–1: the share of the best conceivable match for this query (every word, exactly, and every phrase). */
  score: number;
  /** The query words it matched, and the corrections it matched them by (for highlightsOf). */
  matched: QueryWord[];
  corrected: CorrectedWord[];
  match: Omit<SearchMatch, 'highlights'>;
}

const OWNER_TAG_CHARS = searchTag('u', '').length;
/** A stem's or part's tag: the family letter, then the owner's tag. */
const FAMILY_TAG_CHARS = familyTag('s', searchTag('u', '')).length;
const S_CODE = familyTag('s', '').charCodeAt(0);
const P_CODE = familyTag('p', '').charCodeAt(0);

/** Most highlights returned per memory. */
const MAX_HIGHLIGHTS = 64;

/**
 * How many of the owners' memories a query word can match: its broadest way (its stem's
 * documents include its own), or its corrections' when it has them.
 */
export function wordDocs(word: QueryWord, stats: OwnersStats): number {
  const docs = (term: string) => stats.termDocs.get(term) ?? 0;
  return Math.max(docs(`w${word.text}`), docs(`p${word.text}`), ...word.stems.map((stem) => docs(`s${stem}`)), ...(word.corrections ?? []).map((c) => docs(`w${c.text}`)));
}

/** The statistics terms a query needs: its words, stems and parts in their families. */
export function statsTermsOf(query: SearchQuery): string[] {
  const terms = new Set<string>();
  for (const w of query.words) {
    terms.add(`w${w.text}`).add(`p${w.text}`);
    for (const stem of w.stems) terms.add(`s${stem}`);
    for (const part of w.parts) terms.add(`w${part}`).add(`p${part}`);
  }
  return [...terms];
}

/**
 * What a query looks for in a memory's terms, folded, each kind numbered: a candidate's
 * findings are counted in flat arrays (one slot per candidate and term), not in maps and
 * sets per candidate.
 */
interface Lens {
  /** Words whose positions matter (query words, their parts, phrase words). */
  words: Numbered;
  stems: Numbered;
  parts: Numbered;
  /** The prefixes to count (distinct), and one entry per prefix query word (a duplicate counts twice, as it always has). */
  prefixes: Numbered;
  prefixWords: string[];
}

/** Distinct terms and their numbers. */
interface Numbered {
  terms: string[];
  index: Map<string, number>;
}

function numbered(terms: Iterable<string>): Numbered {
  const distinct = [...new Set(terms)];
  return { terms: distinct, index: new Map(distinct.map((term, i) => [term, i])) };
}

const WORD_FAMILY = 0;
const STEM_FAMILY = 1;
const PART_FAMILY = 2;

/**
 * A term's hash as findingsOf looks it up: its family, length and three of its characters
 * (first, middle, last), so a token is hashed without reading it whole; the table
 * compares the term itself on a hit.
 */
function termHash(family: number, text: string, start: number, end: number): number {
  const length = end - start;
  let hash = Math.imul(family + 1, 0x9e3779b1) ^ length;
  hash = Math.imul(hash ^ text.charCodeAt(start), 0x85ebca6b);
  hash = Math.imul(hash ^ text.charCodeAt(start + (length >> 1)), 0xc2b2ae35);
  hash = Math.imul(hash ^ text.charCodeAt(end - 1), 0x27d4eb2f);
  return hash ^ (hash >>> 15);
}

/**
 * The lens's terms of every family in one open-addressing table keyed by termHash: a
 * token's term is looked up where it stands in its row, without being cut out.
 */
class TermTable {
  readonly #mask: number;
  readonly #hashes: Int32Array;
  readonly #families: Int8Array;
  /** The term's number in its family. */
  readonly #indexes: Int32Array;
  readonly #terms: (string | undefined)[];

  constructor(families: readonly (readonly string[])[]) {
    const count = families.reduce((sum, terms) => sum + terms.length, 0);
    let size = 16;
    while (size < count * 4) size *= 2;
    this.#mask = size - 1;
    this.#hashes = new Int32Array(size);
    this.#families = new Int8Array(size);
    this.#indexes = new Int32Array(size);
    this.#terms = new Array(size);
    families.forEach((terms, family) =>
      terms.forEach((term, index) => {
        const hash = termHash(family, term, 0, term.length);
        let slot = hash & this.#mask;
        while (this.#terms[slot] !== undefined) slot = (slot + 1) & this.#mask;
        this.#hashes[slot] = hash;
        this.#families[slot] = family;
        this.#indexes[slot] = index;
        this.#terms[slot] = term;
      }),
    );
  }

  /** The number in `family` of the term `text` holds at [start, end) (hashed `hash`), or -1. */
  find(hash: number, family: number, text: string, start: number, end: number): number {
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const term = this.#terms[slot];
      if (term === undefined) return -1;
      if (this.#hashes[slot] === hash && this.#families[slot] === family && term.length === end - start && text.startsWith(term, start)) return this.#indexes[slot]!;
    }
  }
}

/** What the candidates hold of the lens: slot [candidate × terms of the kind + term]. */
interface Findings {
  /** Words per candidate (BM25's document length). */
  lengths: Int32Array;
  /** Occurrences of each lens word. */
  wordCounts: Int32Array;
  /** Positions of each lens word (only when the query has phrases). */
  positions: (number[] | undefined)[] | null;
  /** Stems and parts are stored once per memory: present or not. */
  stems: Uint8Array;
  parts: Uint8Array;
  /** Words and parts that begin with each prefix (without being it). */
  prefixed: Int32Array;
}

/**
 * What the candidates' search_terms columns (memory-terms.ts) hold of what the query
 * looks for: one pass over each row's tokens, where analysing the content again would
 * cost the tokeniser and the stemmer for every candidate. Tokens are compared
 * accent-folded, as the collation compares (a row with non-ASCII letters is folded once,
 * whole), each looked up by its term's hash (TermTable) where it stands in the row.
 */
function findingsOf(rows: readonly { searchTerms: string }[], lens: Lens, withPositions: boolean): Findings {
  const n = rows.length;
  const words = lens.words.terms.length;
  const stems = lens.stems.terms.length;
  const parts = lens.parts.terms.length;
  const prefixes = lens.prefixes.terms.length;
  const found: Findings = {
    lengths: new Int32Array(n),
    wordCounts: new Int32Array(n * words),
    positions: withPositions ? new Array(n * words) : null,
    stems: new Uint8Array(n * stems),
    parts: new Uint8Array(n * parts),
    prefixed: new Int32Array(n * prefixes),
  };
  const table = new TermTable([lens.words.terms, lens.stems.terms, lens.parts.terms]);
  const prefixIndexes = lens.prefixWords.map((prefix) => lens.prefixes.index.get(prefix)!);
  for (let row = 0; row < n; row++) {
    // Every token of a row carries its owner's tag (and the tag says the family): the
    // term after it is what is compared.
    const terms = foldTerm(rows[row]!.searchTerms);
    let length = 0;
    for (let start = 0; start < terms.length; ) {
      const code = terms.charCodeAt(start);
      const family = code === S_CODE ? STEM_FAMILY : code === P_CODE ? PART_FAMILY : WORD_FAMILY;
      const termStart = start + (family === WORD_FAMILY ? OWNER_TAG_CHARS : FAMILY_TAG_CHARS);
      let end = terms.indexOf(' ', termStart);
      if (end < 0) end = terms.length;
      if (end > termStart) {
        const index = table.find(termHash(family, terms, termStart, end), family, terms, termStart, end);
        if (index >= 0) {
          if (family === WORD_FAMILY) {
            const slot = row * words + index;
            found.wordCounts[slot]!++;
            if (found.positions) (found.positions[slot] ??= []).push(length);
          } else if (family === STEM_FAMILY) found.stems[row * stems + index] = 1;
          else found.parts[row * parts + index] = 1;
        }
        if (family !== STEM_FAMILY) {
          for (let p = 0; p < prefixIndexes.length; p++) {
            const prefix = lens.prefixWords[p]!;
            if (end - termStart > prefix.length && terms.startsWith(prefix, termStart)) found.prefixed[row * prefixes + prefixIndexes[p]!]!++;
          }
        }
        if (family === WORD_FAMILY) length++;
      }
      start = end + 1;
    }
    found.lengths[row] = length;
  }
  return found;
}

// rankCandidates keeps the words and phrases a candidate matched in 32-bit sets.
if (MAX_QUERY_WORDS > 32) throw new Error('MAX_QUERY_WORDS is more than a 32-bit set holds');

/** A candidate's score and what it matched (bit i: query word or phrase i). */
interface Scored<T> {
  row: T;
  raw: number;
  exactWords: number;
  matched: number;
  wordSet: number;
  phraseSet: number;
  /** Query word → the correction it matched by, for words matched only so. */
  corrected: Map<number, number> | undefined;
}

const NO_CORRECTION = { value: 0, which: -1 };

/** BM25's saturated term frequency, for a document whose length normalisation is `norm`. */
const saturate = (tf: number, norm: number) => (tf === 0 ? 0 : (tf * (K1 + 1)) / (tf + norm));

/** The best `limit` of `rows` for `query`, best first, with what matched where. */
export function rankCandidates<T extends { searchTerms: string; id: string }>(rows: readonly T[], query: SearchQuery, stats: OwnersStats, limit: number): Ranked<T>[] {
  // Candidates come from the owner's rows, so the owner has at least that many.
  const docs = Math.max(stats.docs, rows.length, 1);
  const averageLength = stats.tokens > 0 && stats.docs > 0 ? stats.tokens / stats.docs : 20;
  const idf = (df: number) => Math.log(1 + (docs - Math.min(df, docs) + 0.5) / (Math.min(df, docs) + 0.5));
  const termDf = (term: string) => stats.termDocs.get(term) ?? 0;
  const base = query.words.map((w) => ({
    word: w,
    folded: foldTerm(w.text),
    foldedStems: w.stems.map(foldTerm),
    foldedParts: w.parts.map(foldTerm),
    corrections: (w.corrections ?? []).map((c) => ({ folded: foldTerm(c.text), foldedStems: c.stems.map(foldTerm) })),
  }));
  const phraseWords = query.phrases.map((p) => p.words.map(foldTerm));
  const prefixWords = base.filter((w) => w.word.prefix).map((w) => w.folded);
  const lens: Lens = {
    words: numbered([...base.flatMap((w) => [w.folded, ...w.foldedParts, ...w.corrections.map((c) => c.folded)]), ...phraseWords.flat()]),
    stems: numbered(base.flatMap((w) => [...w.foldedStems, ...w.corrections.flatMap((c) => c.foldedStems)])),
    parts: numbered(base.flatMap((w) => [w.folded, ...w.foldedParts])),
    prefixes: numbered(prefixWords),
    prefixWords,
  };
  const found = findingsOf(rows, lens, query.phrases.length > 0);
  const nWords = lens.words.terms.length;
  const nStems = lens.stems.terms.length;
  const nParts = lens.parts.terms.length;
  const nPrefixes = lens.prefixes.terms.length;
  const words = base.map((w) => {
    const prefix = w.word.prefix ? lens.prefixes.index.get(w.folded)! : -1;
    // One IDF per query word, from the broadest way it can match (its stem's documents
    // include its own): it says how much the word matters among the query's words, and
    // the kind weights alone say how well a memory matched it, so a memory with the word
    // itself always outranks one with only its stem, a part or a prefix, other things equal.
    // A word not in the owner's vocabulary (typed halfway) counts the candidates it begins
    // a word of: all the owner's such memories, unless more than SEARCH_CANDIDATES match.
    const df = wordDocs(w.word, stats);
    let prefixDf = 0;
    if (df === 0 && prefix >= 0) for (let row = 0; row < rows.length; row++) if (found.prefixed[row * nPrefixes + prefix]! > 0) prefixDf++;
    return {
      word: w.word,
      wordIdf: idf(df > 0 ? df : prefixDf),
      partsIdf: w.word.parts.map((part) => idf(Math.max(termDf(`w${part}`), termDf(`p${part}`)))),
      exact: lens.words.index.get(w.folded)!,
      stems: w.foldedStems.map((stem) => lens.stems.index.get(stem)!),
      asPart: lens.parts.index.get(w.folded)!,
      partWords: w.foldedParts.map((part) => lens.words.index.get(part)!),
      partParts: w.foldedParts.map((part) => lens.parts.index.get(part)!),
      prefix,
      corrections: w.corrections.map((c) => ({ word: lens.words.index.get(c.folded)!, stems: c.foldedStems.map((stem) => lens.stems.index.get(stem)!) })),
    };
  });
  const phraseIdf = (phrase: readonly string[]) => phrase.reduce((sum, word) => sum + idf(termDf(`w${word}`)), 0);
  const phraseBonus = query.phrases.map((p) => phraseIdf(p.words) * (p.quoted ? QUOTED_PHRASE_BONUS : WRITTEN_TOGETHER_BONUS));
  const phraseSlots = phraseWords.map((phrase) => phrase.map((word) => lens.words.index.get(word)!));
  const ideal = words.reduce((sum, w) => sum + w.wordIdf, 0) + phraseBonus.reduce((a, b) => a + b, 0);

  const containsPhrase = (row: number, slots: readonly number[]) => {
    const positions = found.positions!;
    return (positions[row * nWords + slots[0]!] ?? []).some((start) => slots.every((slot, i) => i === 0 || positions[row * nWords + slot]?.includes(start + i) === true));
  };

  // An identifier's parts matched one by one (as words or as parts), averaged.
  const partsScore = (w: (typeof words)[number], r: number, norm: number) => {
    if (w.partWords.length === 0) return 0;
    let sum = 0;
    for (let i = 0; i < w.partWords.length; i++) sum += w.partsIdf[i]! * saturate(found.wordCounts[r * nWords + w.partWords[i]!]! + found.parts[r * nParts + w.partParts[i]!]!, norm);
    return sum / w.partWords.length;
  };
  const hasStem = (stems: readonly number[], r: number) => {
    for (const stem of stems) if (found.stems[r * nStems + stem] === 1) return true;
    return false;
  };
  // The best of a word's corrections found in a candidate (as written, else by its stem), and which.
  const correctionOf = (w: (typeof words)[number], r: number, norm: number) => {
    let best = 0;
    let which = -1;
    for (let i = 0; i < w.corrections.length; i++) {
      const c = w.corrections[i]!;
      const tf = found.wordCounts[r * nWords + c.word]!;
      const value = tf > 0 ? saturate(tf, norm) : hasStem(c.stems, r) ? saturate(1, norm) * MATCH_WEIGHTS.stem : 0;
      if (value > best) {
        best = value;
        which = i;
      }
    }
    return { value: w.wordIdf * best * MATCH_WEIGHTS.correction, which };
  };

  // Which words and phrases a candidate matched are bit sets (a query has at most
  // MAX_QUERY_WORDS of each): the lists are made for the returned candidates only.
  const scored: Scored<T>[] = [];
  for (let r = 0; r < rows.length; r++) {
    const norm = K1 * (1 - B + (B * found.lengths[r]!) / averageLength);
    let raw = 0;
    let exactWords = 0;
    let matched = 0;
    let wordSet = 0;
    let corrected: Map<number, number> | undefined;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      // Each way of matching, weighted; the word's is the best (of equals, the word itself).
      const exact = w.wordIdf * saturate(found.wordCounts[r * nWords + w.exact]!, norm) * MATCH_WEIGHTS.exact;
      const stem = (hasStem(w.stems, r) ? w.wordIdf * saturate(1, norm) : 0) * MATCH_WEIGHTS.stem;
      const part = Math.max(found.parts[r * nParts + w.asPart] === 1 ? w.wordIdf * saturate(1, norm) : 0, partsScore(w, r, norm)) * MATCH_WEIGHTS.part;
      const prefix = w.wordIdf * saturate(w.prefix >= 0 ? found.prefixed[r * nPrefixes + w.prefix]! : 0, norm) * MATCH_WEIGHTS.prefix;
      const correction = w.corrections.length > 0 ? correctionOf(w, r, norm) : NO_CORRECTION;
      const best = Math.max(exact, stem, part, prefix, correction.value);
      if (best > 0) {
        raw += best;
        matched++;
        wordSet |= 1 << i;
        if (exact === best) exactWords++;
        else if (correction.value === best) (corrected ??= new Map()).set(i, correction.which);
      }
    }
    let phraseSet = 0;
    for (let i = 0; i < query.phrases.length; i++) {
      if (containsPhrase(r, phraseSlots[i]!)) {
        raw += phraseBonus[i]!;
        phraseSet |= 1 << i;
      }
    }
    if (raw > 0) scored.push({ row: rows[r]!, raw, exactWords, matched, wordSet, phraseSet, corrected });
  }
  // Best score first; among equal scores the memory matching more words, then more of
  // them exactly, then the newest (ids grow with time).
  const rounded = (value: number) => Math.round(value * 1e9);
  scored.sort((a, b) => rounded(b.raw) - rounded(a.raw) || b.matched - a.matched || b.exactWords - a.exactWords || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0));
  return scored.slice(0, limit).map((s) => {
    const matched = query.words.filter((_, i) => (s.wordSet & (1 << i)) !== 0 && !s.corrected?.has(i));
    const corrections = [...(s.corrected ?? [])].map(([i, which]) => ({ word: query.words[i]!, correction: query.words[i]!.corrections![which]! }));
    return {
      row: s.row,
      score: ideal > 0 ? Math.min(1, Math.round((s.raw / ideal) * 1e4) / 1e4) : 0,
      matched,
      corrected: corrections.map(({ correction }) => correction),
      match: {
        terms: query.words.filter((_, i) => (s.wordSet & (1 << i)) !== 0).map((w) => w.text),
        corrections: corrections.map(({ word, correction }) => ({ from: word.text, to: correction.text })),
        phrases: query.phrases.filter((_, i) => (s.phraseSet & (1 << i)) !== 0).map((phrase) => phrase.words.join(' ')),
      },
    };
  });
}

/** A matched query word as highlighting compares it (folded), made once per word. */
interface HighlightedWord {
  folded: string;
  stems: Set<string>;
  /** The stems' first two letters (a word that starts otherwise need not be stemmed). */
  stemHeads: string[];
  parts: Set<string>;
  prefix: boolean;
  /** A correction of a query word: its matches are highlighted as `correction`. */
  corrected: boolean;
}

const highlightedWords = new WeakMap<QueryWord | CorrectedWord, HighlightedWord>();

function highlightedWord(w: QueryWord | CorrectedWord): HighlightedWord {
  let known = highlightedWords.get(w);
  if (!known) {
    const stems = new Set(w.stems.map(foldTerm));
    const corrected = !('prefix' in w);
    known = {
      folded: foldTerm(w.text),
      stems,
      stemHeads: [...stems].map((stem) => stem.slice(0, 2)),
      parts: new Set(corrected ? [] : w.parts.map(foldTerm)),
      prefix: !corrected && w.prefix,
      corrected,
    };
    highlightedWords.set(w, known);
  }
  return known;
}

/** `head` is the first two letters of `word` (all of it, if shorter), compared without cutting. */
const headOf = (word: string, head: string) => head.length === Math.min(2, word.length) && word.startsWith(head);

function sharesStemHead(word: string, matched: readonly HighlightedWord[]): boolean {
  for (const w of matched) for (const head of w.stemHeads) if (headOf(word, head)) return true;
  return false;
}

const same = (term: string) => term;

/**
 * The highlights of a memory's words, one word at a time (in the content's order), by
 * highlightsOf's rules; `stem` is asked for a word's stem only when one could match.
 */
class Highlighter {
  readonly highlights: Highlight[] = [];
  readonly #matched: readonly HighlightedWord[];
  readonly #fold: (term: string) => string;
  readonly #stem: (word: string) => string | null;

  constructor(matched: readonly HighlightedWord[], fold: (term: string) => string, stem: (word: string) => string | null) {
    this.#matched = matched;
    this.#fold = fold;
    this.#stem = stem;
  }

  get full(): boolean {
    return this.highlights.length >= MAX_HIGHLIGHTS;
  }

  #isPart(term: string): boolean {
    for (const w of this.#matched) if (w.parts.has(term)) return true;
    return false;
  }

  /** The best way a word matches any matched word: the word itself, else its stem, else as a prefix. */
  #kindOf(text: string, folded: string): MatchKind | null {
    const matched = this.#matched;
    for (const w of matched) if (folded === w.folded) return w.corrected ? 'correction' : 'exact';
    // Snowball only cuts endings: a word whose first letters no matched stem shares need not be stemmed.
    const stem = sharesStemHead(folded, matched) ? this.#stem(text) : null;
    if (stem !== null) {
      const foldedStem = foldTerm(stem);
      for (const w of matched) if (w.stems.has(foldedStem)) return w.corrected ? 'correction' : 'stem';
    }
    for (const w of matched) if (w.prefix && folded.startsWith(w.folded)) return 'prefix';
    return null;
  }

  word({ text, start, end, parts }: AnalysedWord): void {
    const matched = this.#matched;
    const fold = this.#fold;
    const folded = fold(text);
    const kind = this.#kindOf(text, folded);
    if (kind) {
      this.highlights.push({ start, end, kind });
      return;
    }
    for (const part of parts) {
      const foldedPart = fold(part.text);
      let hit = this.#isPart(foldedPart);
      for (const w of matched) hit ||= w.folded === foldedPart || (w.prefix && foldedPart.startsWith(w.folded));
      if (hit) this.highlights.push({ start: part.start, end: part.end, kind: 'part' });
    }
    if (this.#isPart(folded)) this.highlights.push({ start, end, kind: 'part' });
  }
}

/**
 * The first letters (lower-cased ASCII codes) a word must begin with to be any matched
 * word, one of its stems (Snowball only cuts endings), a part of it or longer than it.
 */
function asciiHeads(matched: readonly HighlightedWord[]): Uint8Array {
  const heads = new Uint8Array(128);
  const add = (term: string) => {
    const code = term.charCodeAt(0);
    if (code < 128) heads[code] = 1;
  };
  for (const w of matched) {
    add(w.folded);
    w.stems.forEach(add);
    w.parts.forEach(add);
  }
  return heads;
}

const lowerAscii = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * Where the matched words (and the corrections matched for misspelt ones) are in the
 * content: for the returned memories only, as it runs the tokeniser and the stemmer.
 */
export function highlightsOf(content: string, words: readonly QueryWord[], corrected: readonly CorrectedWord[] = []): Highlight[] {
  const matched = [...words, ...corrected].map(highlightedWord);
  const ascii = isAscii(content);
  // The memory's language (as its stems were indexed) only once a word needs stemming.
  let analysed: AnalysedWord[] | undefined;
  let language: StemLanguage | undefined;
  const stem = (word: string) => stemOf(word, (language ??= ascii ? evidentLanguageOfAscii(content) : evidentLanguage((analysed ??= analyseText(content)))));
  // ASCII has nothing to fold.
  const highlighter = new Highlighter(matched, ascii ? same : foldTerm, stem);
  if (ascii) {
    // Words are found by character codes, and a word that can match nothing (its first
    // letter is none of the matched words', stems' or parts', and it has no parts) is
    // passed over without being cut out of the content or analysed.
    const heads = asciiHeads(matched);
    forEachAsciiWord(content, (start, end) => {
      if (highlighter.full) return;
      if (heads[lowerAscii(content.charCodeAt(start))] === 0 && !mayAsciiRunSplit(content, start, end)) return;
      highlighter.word(asciiWordAt(content, start, end));
    });
    return highlighter.highlights;
  }
  for (const word of (analysed ??= analyseText(content))) {
    if (highlighter.full) break;
    highlighter.word(word);
  }
  return highlighter.highlights;
}
