import { analyseText, isAscii } from './analyze';
import { familyTag } from './memory-terms';
import { searchTag } from './terms';
import { evidentLanguage, stemOf, type StemLanguage } from './language';
import type { QueryWord, SearchQuery } from './query';
import { foldTerm, type OwnersStats } from './stats';

/**
 * Re-ranks FULLTEXT candidates with BM25 over the owner's own statistics. Each query
 * word scores by the best way it matches a memory — the word itself, its stem, as a
 * part of an identifier, or as the beginning of a longer word — weighted in that order;
 * a phrase found as written adds a bonus (quoted phrases enough to outrank any
 * bag-of-words match of the same words).
 */

export type MatchKind = 'exact' | 'stem' | 'part' | 'prefix';
/** The ways of matching, best first: of equally good ways, the first is the word's. */
const MATCH_KINDS: readonly MatchKind[] = ['exact', 'stem', 'part', 'prefix'];

/** How much each way of matching counts, relative to the word itself. */
export const MATCH_WEIGHTS: Record<MatchKind, number> = { exact: 1, stem: 0.7, part: 0.5, prefix: 0.35 };
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
  /** Quoted or written-together query phrases found in the memory as written. */
  phrases: string[];
  highlights: Highlight[];
}

export interface Ranked<T> {
  row: T;
  /** 0–1: the share of the best conceivable match for this query (every word, exactly, and every phrase). */
  score: number;
  /** The query words it matched (for highlightsOf). */
  matched: QueryWord[];
  match: Omit<SearchMatch, 'highlights'>;
}

const OWNER_TAG_CHARS = searchTag('u', '').length;
const S_CODE = familyTag('s', '').charCodeAt(0);
const P_CODE = familyTag('p', '').charCodeAt(0);

/** Most highlights returned per memory. */
const MAX_HIGHLIGHTS = 64;

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

/** A term of the lens as one owner's token (tag + term), looked up where it stands, without cutting tokens out. */
interface WantedToken {
  token: string;
  family: typeof WORD_FAMILY | typeof STEM_FAMILY | typeof PART_FAMILY;
  /** Its number in its family. */
  index: number;
}

interface TaggedLens {
  /** By token length: the wanted tokens of that length (a token of another length is none of them). */
  byLength: (WantedToken[] | undefined)[];
  /** [tagged word prefix, tagged part prefix, number of the prefix], one per prefix query word. */
  prefixes: [string, string, number][];
}

function tagLens(lens: Lens, owner: string): TaggedLens {
  const byLength: (WantedToken[] | undefined)[] = [];
  const want = (family: WantedToken['family'], tag: string, terms: readonly string[]) =>
    terms.forEach((term, index) => {
      const token = tag + term;
      (byLength[token.length] ??= []).push({ token, family, index });
    });
  want(WORD_FAMILY, familyTag('w', owner), lens.words.terms);
  want(STEM_FAMILY, familyTag('s', owner), lens.stems.terms);
  want(PART_FAMILY, familyTag('p', owner), lens.parts.terms);
  return {
    byLength,
    prefixes: lens.prefixWords.map((prefix) => [familyTag('w', owner) + prefix, familyTag('p', owner) + prefix, lens.prefixes.index.get(prefix)!]),
  };
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
 * whole), and only against wanted tokens of their length.
 */
function findingsOf(rows: readonly { searchTerms: string }[], lens: Lens, withPositions: boolean): Findings {
  const n = rows.length;
  const words = lens.words.terms.length;
  const found: Findings = {
    lengths: new Int32Array(n),
    wordCounts: new Int32Array(n * words),
    positions: withPositions ? new Array(n * words) : null,
    stems: new Uint8Array(n * lens.stems.terms.length),
    parts: new Uint8Array(n * lens.parts.terms.length),
    prefixed: new Int32Array(n * lens.prefixes.terms.length),
  };
  const byOwner = new Map<string, TaggedLens>();
  for (let row = 0; row < n; row++) {
    const searchTerms = rows[row]!.searchTerms;
    // Every token of a row carries its owner's tag; the first one is a word's (or empty content's).
    const owner = searchTerms.slice(0, OWNER_TAG_CHARS);
    let tagged = byOwner.get(owner);
    if (!tagged) byOwner.set(owner, (tagged = tagLens(lens, owner)));
    const terms = foldTerm(searchTerms);
    let length = 0;
    for (let start = 0; start < terms.length; ) {
      let end = terms.indexOf(' ', start);
      if (end < 0) end = terms.length;
      const family = terms.charCodeAt(start);
      const isWord = family !== S_CODE && family !== P_CODE;
      if (!isWord || end - start > OWNER_TAG_CHARS) {
        const wanted = tagged.byLength[end - start];
        if (wanted !== undefined) {
          for (const candidate of wanted) {
            if (!terms.startsWith(candidate.token, start)) continue;
            if (candidate.family === WORD_FAMILY) {
              const slot = row * words + candidate.index;
              found.wordCounts[slot]!++;
              if (found.positions) (found.positions[slot] ??= []).push(length);
            } else if (candidate.family === STEM_FAMILY) found.stems[row * lens.stems.terms.length + candidate.index] = 1;
            else found.parts[row * lens.parts.terms.length + candidate.index] = 1;
            break;
          }
        }
        if (family !== S_CODE) {
          for (const [wordPrefix, partPrefix, index] of tagged.prefixes) {
            const prefix = isWord ? wordPrefix : partPrefix;
            if (end - start > prefix.length && terms.startsWith(prefix, start)) found.prefixed[row * lens.prefixes.terms.length + index]!++;
          }
        }
        if (isWord) length++;
      }
      start = end + 1;
    }
    found.lengths[row] = length;
  }
  return found;
}

/** BM25's saturated term frequency, for a document whose length normalisation is `norm`. */
const saturate = (tf: number, norm: number) => (tf === 0 ? 0 : (tf * (K1 + 1)) / (tf + norm));

/** The best `limit` of `rows` for `query`, best first, with what matched where. */
export function rankCandidates<T extends { searchTerms: string; id: string }>(rows: readonly T[], query: SearchQuery, stats: OwnersStats, limit: number): Ranked<T>[] {
  // Candidates come from the owner's rows, so the owner has at least that many.
  const docs = Math.max(stats.docs, rows.length, 1);
  const averageLength = stats.tokens > 0 && stats.docs > 0 ? stats.tokens / stats.docs : 20;
  const idf = (df: number) => Math.log(1 + (docs - Math.min(df, docs) + 0.5) / (Math.min(df, docs) + 0.5));
  const termDf = (term: string) => stats.termDocs.get(term) ?? 0;
  const base = query.words.map((w) => ({ word: w, folded: foldTerm(w.text), foldedStems: w.stems.map(foldTerm), foldedParts: w.parts.map(foldTerm) }));
  const phraseWords = query.phrases.map((p) => p.words.map(foldTerm));
  const prefixWords = base.filter((w) => w.word.prefix).map((w) => w.folded);
  const lens: Lens = {
    words: numbered([...base.flatMap((w) => [w.folded, ...w.foldedParts]), ...phraseWords.flat()]),
    stems: numbered(base.flatMap((w) => w.foldedStems)),
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
    const df = Math.max(termDf(`w${w.word.text}`), termDf(`p${w.word.text}`), ...w.word.stems.map((stem) => termDf(`s${stem}`)));
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

  const scored = rows.map((row, r) => {
    const norm = K1 * (1 - B + (B * found.lengths[r]!) / averageLength);
    let raw = 0;
    let exactWords = 0;
    const matched: QueryWord[] = [];
    for (const w of words) {
      // Each way of matching, weighted; the word's is the best, the first of equals in
      // MATCH_KINDS' order (exact, stem, part, prefix).
      const weighted = [
        w.wordIdf * saturate(found.wordCounts[r * nWords + w.exact]!, norm),
        w.stems.some((stem) => found.stems[r * nStems + stem] === 1) ? w.wordIdf * saturate(1, norm) : 0,
        Math.max(found.parts[r * nParts + w.asPart] === 1 ? w.wordIdf * saturate(1, norm) : 0, partsScore(w, r, norm)),
        w.wordIdf * saturate(w.prefix >= 0 ? found.prefixed[r * nPrefixes + w.prefix]! : 0, norm),
      ];
      let kind = -1;
      let best = 0;
      for (let k = 0; k < MATCH_KINDS.length; k++) {
        const value = weighted[k]! * MATCH_WEIGHTS[MATCH_KINDS[k]!];
        if (value > best) {
          kind = k;
          best = value;
        }
      }
      if (kind >= 0) {
        raw += best;
        matched.push(w.word);
        if (kind === 0) exactWords++;
      }
    }
    const phrases: string[] = [];
    query.phrases.forEach((phrase, i) => {
      if (containsPhrase(r, phraseSlots[i]!)) {
        raw += phraseBonus[i]!;
        phrases.push(phrase.words.join(' '));
      }
    });
    return { row, raw, exactWords, matched, phrases };
  });
  // Best score first; among equal scores the memory matching more words, then more of
  // them exactly, then the newest (ids grow with time).
  const rounded = (value: number) => Math.round(value * 1e9);
  scored.sort((a, b) => rounded(b.raw) - rounded(a.raw) || b.matched.length - a.matched.length || b.exactWords - a.exactWords || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0));
  return scored
    .filter((s) => s.raw > 0)
    .slice(0, limit)
    .map((s) => ({
      row: s.row,
      score: ideal > 0 ? Math.min(1, Math.round((s.raw / ideal) * 1e4) / 1e4) : 0,
      matched: s.matched,
      match: { terms: s.matched.map((w) => w.text), phrases: s.phrases },
    }));
}

/** A matched query word as highlighting compares it (folded), made once per word. */
interface HighlightedWord {
  folded: string;
  stems: Set<string>;
  /** The stems' first two letters (a word that starts otherwise need not be stemmed). */
  stemHeads: string[];
  parts: Set<string>;
  prefix: boolean;
}

const highlightedWords = new WeakMap<QueryWord, HighlightedWord>();

function highlightedWord(w: QueryWord): HighlightedWord {
  let known = highlightedWords.get(w);
  if (!known) {
    const stems = new Set(w.stems.map(foldTerm));
    known = { folded: foldTerm(w.text), stems, stemHeads: [...stems].map((stem) => stem.slice(0, 2)), parts: new Set(w.parts.map(foldTerm)), prefix: w.prefix };
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

/** Where the matched words are in the content (for the returned memories only: it runs the tokeniser and the stemmer). */
export function highlightsOf(content: string, words: readonly QueryWord[]): Highlight[] {
  const analysed = analyseText(content);
  // ASCII has nothing to fold.
  const fold = isAscii(content) ? same : foldTerm;
  // The memory's language (as its stems were indexed) only once a word needs stemming.
  let language: StemLanguage | undefined;
  const stemmed = (word: string) => stemOf(word, (language ??= evidentLanguage(analysed)));
  const highlights: Highlight[] = [];
  const matched = words.map(highlightedWord);
  const isPart = (term: string) => {
    for (const w of matched) if (w.parts.has(term)) return true;
    return false;
  };
  for (const word of analysed) {
    if (highlights.length >= MAX_HIGHLIGHTS) break;
    const folded = fold(word.text);
    // Snowball only cuts endings: a word whose first letters no matched stem shares need not be stemmed.
    const stem = sharesStemHead(folded, matched) ? stemmed(word.text) : null;
    let kind: MatchKind | null = null;
    for (const w of matched) {
      if (folded === w.folded) kind = 'exact';
      else if (kind !== 'exact' && stem !== null && w.stems.has(foldTerm(stem))) kind = 'stem';
      else if (kind === null && w.prefix && folded.startsWith(w.folded)) kind = 'prefix';
    }
    if (kind) {
      highlights.push({ start: word.start, end: word.end, kind });
      continue;
    }
    for (const part of word.parts) {
      const foldedPart = fold(part.text);
      let hit = isPart(foldedPart);
      for (const w of matched) hit ||= w.folded === foldedPart || (w.prefix && foldedPart.startsWith(w.folded));
      if (hit) highlights.push({ start: part.start, end: part.end, kind: 'part' });
    }
    if (isPart(folded)) highlights.push({ start: word.start, end: word.end, kind: 'part' });
  }
  return highlights;
}
