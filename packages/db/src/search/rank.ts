import { analyseText } from './analyze';
import { familyTag, type TermFamily } from './memory-terms';
import { searchTag } from './terms';
import { evidentLanguages, stemOf, type StemLanguage } from './language';
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

/** What a query looks for in a memory's terms, folded. */
interface Lens {
  /** Words whose positions matter (query words, their parts, phrase words). */
  words: Set<string>;
  stems: Set<string>;
  parts: Set<string>;
  prefixes: string[];
}

interface DocumentView {
  length: number;
  /** Positions of the lens's words. */
  words: Map<string, number[]>;
  /** The lens's stems and parts the memory has (each stored once). */
  stems: Set<string>;
  parts: Set<string>;
  /** Prefix → words and parts that begin with it (without being it). */
  prefixed: Map<string, number>;
}

/** A lens's terms as one owner's tokens (tag + term), so tokens are looked up without cutting them. */
interface TaggedLens {
  words: Map<string, string>;
  stems: Map<string, string>;
  parts: Map<string, string>;
  /** [tagged word prefix, tagged part prefix, prefix]. */
  prefixes: [string, string, string][];
  /** The lengths of the tagged words, stems and parts: a token of another length is none of them. */
  lengths: Set<number>;
}

function tagLens(lens: Lens, owner: string): TaggedLens {
  const tagged = (family: TermFamily, terms: Iterable<string>) => new Map([...terms].map((term) => [familyTag(family, owner) + term, term]));
  const words = tagged('w', lens.words);
  const stems = tagged('s', lens.stems);
  const parts = tagged('p', lens.parts);
  return {
    words,
    stems,
    parts,
    prefixes: lens.prefixes.map((prefix) => [familyTag('w', owner) + prefix, familyTag('p', owner) + prefix, prefix]),
    lengths: new Set([...words.keys(), ...stems.keys(), ...parts.keys()].map((token) => token.length)),
  };
}

/**
 * What a memory's search_terms column (memory-terms.ts) holds of what the query looks
 * for: one pass over its tokens, keeping only those, where analysing the content again
 * would cost the tokeniser and the stemmer for every candidate. Tokens are compared
 * accent-folded, as the collation compares (a row with non-ASCII letters is folded once,
 * whole), and only those of a wanted length are cut out and looked up.
 */
function view(searchTerms: string, lens: Lens, byOwner: Map<string, TaggedLens>): DocumentView {
  const doc: DocumentView = { length: 0, words: new Map(), stems: new Set(), parts: new Set(), prefixed: new Map() };
  // Every token of a row carries its owner's tag; the first one is a word's (or empty content's).
  const owner = searchTerms.slice(0, OWNER_TAG_CHARS);
  let tagged = byOwner.get(owner);
  if (!tagged) byOwner.set(owner, (tagged = tagLens(lens, owner)));
  const terms = foldTerm(searchTerms);
  const countPrefixes = (start: number, length: number, family: 0 | 1) => {
    for (const prefix of tagged.prefixes) {
      if (length > prefix[family].length && terms.startsWith(prefix[family], start)) doc.prefixed.set(prefix[2], (doc.prefixed.get(prefix[2]) ?? 0) + 1);
    }
  };
  const lookUp = (wanted: Map<string, string>, start: number, end: number) => (tagged.lengths.has(end - start) ? wanted.get(terms.slice(start, end)) : undefined);
  for (let start = 0; start < terms.length; ) {
    let end = terms.indexOf(' ', start);
    if (end < 0) end = terms.length;
    const family = terms.charCodeAt(start);
    if (family === S_CODE) {
      const stem = lookUp(tagged.stems, start, end);
      if (stem !== undefined) doc.stems.add(stem);
    } else if (family === P_CODE) {
      const part = lookUp(tagged.parts, start, end);
      if (part !== undefined) doc.parts.add(part);
      if (tagged.prefixes.length > 0) countPrefixes(start, end - start, 1);
    } else if (end - start > OWNER_TAG_CHARS) {
      const word = lookUp(tagged.words, start, end);
      if (word !== undefined) {
        const at = doc.words.get(word);
        if (at) at.push(doc.length);
        else doc.words.set(word, [doc.length]);
      }
      if (tagged.prefixes.length > 0) countPrefixes(start, end - start, 0);
      doc.length++;
    }
    start = end + 1;
  }
  return doc;
}

function containsPhrase(doc: DocumentView, phrase: readonly string[]): boolean {
  const [first, ...rest] = phrase.map(foldTerm);
  return (doc.words.get(first!) ?? []).some((start) => rest.every((word, i) => doc.words.get(word)?.includes(start + 1 + i)));
}

/** The best `limit` of `rows` for `query`, best first, with what matched where. */
export function rankCandidates<T extends { searchTerms: string; id: string }>(rows: readonly T[], query: SearchQuery, stats: OwnersStats, limit: number): Ranked<T>[] {
  // Candidates come from the owner's rows, so the owner has at least that many.
  const docs = Math.max(stats.docs, rows.length, 1);
  const averageLength = stats.tokens > 0 && stats.docs > 0 ? stats.tokens / stats.docs : 20;
  const idf = (df: number) => Math.log(1 + (docs - Math.min(df, docs) + 0.5) / (Math.min(df, docs) + 0.5));
  const termDf = (term: string) => stats.termDocs.get(term) ?? 0;
  const base = query.words.map((w) => ({ ...w, folded: foldTerm(w.text), foldedStems: w.stems.map(foldTerm), foldedParts: w.parts.map(foldTerm) }));
  const lens: Lens = {
    words: new Set([...base.flatMap((w) => [w.folded, ...w.foldedParts]), ...query.phrases.flatMap((p) => p.words.map(foldTerm))]),
    stems: new Set(base.flatMap((w) => w.foldedStems)),
    parts: new Set(base.flatMap((w) => [w.folded, ...w.foldedParts])),
    prefixes: base.filter((w) => w.prefix).map((w) => w.folded),
  };
  const byOwner = new Map<string, TaggedLens>();
  const views = rows.map((row) => view(row.searchTerms, lens, byOwner));
  const words = base.map((w) => {
    // One IDF per query word, from the broadest way it can match (its stem's documents
    // include its own): it says how much the word matters among the query's words, and
    // the kind weights alone say how well a memory matched it, so a memory with the word
    // itself always outranks one with only its stem, a part or a prefix, other things equal.
    // A word not in the owner's vocabulary (typed halfway) counts the candidates it begins
    // a word of: all the owner's such memories, unless more than SEARCH_CANDIDATES match.
    const df = Math.max(termDf(`w${w.text}`), termDf(`p${w.text}`), ...w.stems.map((stem) => termDf(`s${stem}`)));
    const prefixDf = df === 0 && w.prefix ? views.filter((doc) => doc.prefixed.has(w.folded)).length : 0;
    return {
      ...w,
      wordIdf: idf(df > 0 ? df : prefixDf),
      partsIdf: w.parts.map((part) => idf(Math.max(termDf(`w${part}`), termDf(`p${part}`)))),
    };
  });
  const phraseIdf = (phrase: readonly string[]) => phrase.reduce((sum, word) => sum + idf(termDf(`w${word}`)), 0);
  const phraseBonus = query.phrases.map((p) => phraseIdf(p.words) * (p.quoted ? QUOTED_PHRASE_BONUS : WRITTEN_TOGETHER_BONUS));
  const ideal = words.reduce((sum, w) => sum + w.wordIdf, 0) + phraseBonus.reduce((a, b) => a + b, 0);

  const scored = rows.map((row, index) => {
    const doc = views[index]!;
    const saturate = (tf: number) => (tf === 0 ? 0 : (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / averageLength)));
    let raw = 0;
    let exactWords = 0;
    const kinds = new Map<QueryWord, MatchKind>();
    for (const w of words) {
      const prefixTf = w.prefix ? (doc.prefixed.get(w.folded) ?? 0) : 0;
      // Stems and parts are stored once per memory: their frequency counts as 1.
      const partsScore = w.foldedParts.length === 0 ? 0 : w.foldedParts.reduce((sum, part, i) => sum + w.partsIdf[i]! * saturate((doc.words.get(part)?.length ?? 0) + (doc.parts.has(part) ? 1 : 0)), 0) / w.foldedParts.length;
      const options: [MatchKind, number][] = [
        ['exact', w.wordIdf * saturate(doc.words.get(w.folded)?.length ?? 0)],
        ['stem', w.foldedStems.some((stem) => doc.stems.has(stem)) ? w.wordIdf * saturate(1) : 0],
        ['part', Math.max(doc.parts.has(w.folded) ? w.wordIdf * saturate(1) : 0, partsScore)],
        ['prefix', w.wordIdf * saturate(prefixTf)],
      ];
      let best: [MatchKind, number] | null = null;
      for (const [kind, value] of options) {
        const weighted = value * MATCH_WEIGHTS[kind];
        if (weighted > 0 && (best === null || weighted > best[1])) best = [kind, weighted];
      }
      if (best) {
        raw += best[1];
        kinds.set(w, best[0]);
        if (best[0] === 'exact') exactWords++;
      }
    }
    const phrases: string[] = [];
    query.phrases.forEach((phrase, i) => {
      if (containsPhrase(doc, phrase.words)) {
        raw += phraseBonus[i]!;
        phrases.push(phrase.words.join(' '));
      }
    });
    return { row, raw, exactWords, matched: kinds.size, kinds, phrases };
  });
  // Best score first; among equal scores the memory matching more words, then more of
  // them exactly, then the newest (ids grow with time).
  const rounded = (value: number) => Math.round(value * 1e9);
  scored.sort((a, b) => rounded(b.raw) - rounded(a.raw) || b.matched - a.matched || b.exactWords - a.exactWords || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0));
  return scored
    .filter((s) => s.raw > 0)
    .slice(0, limit)
    .map((s) => ({
      row: s.row,
      score: ideal > 0 ? Math.min(1, Math.round((s.raw / ideal) * 1e4) / 1e4) : 0,
      matched: [...s.kinds.keys()],
      match: { terms: [...s.kinds.keys()].map((w) => w.text), phrases: s.phrases },
    }));
}

/** Where the matched words are in the content (for the returned memories only: it runs the tokeniser and the stemmer). */
export function highlightsOf(content: string, words: readonly QueryWord[]): Highlight[] {
  const analysed = analyseText(content);
  // The memory's language (as its stems were indexed) only once a word needs stemming.
  let language: StemLanguage | undefined;
  const stemmed = (word: string) => stemOf(word, (language ??= evidentLanguages(analysed.map((w) => w.text))[0]!));
  const highlights: Highlight[] = [];
  const matched = words.map((w) => ({ folded: foldTerm(w.text), stems: new Set(w.stems.map(foldTerm)), parts: new Set(w.parts.map(foldTerm)), prefix: w.prefix }));
  const stemHeads = new Set(matched.flatMap((w) => [...w.stems].map((stem) => stem.slice(0, 2))));
  for (const word of analysed) {
    if (highlights.length >= MAX_HIGHLIGHTS) break;
    const folded = foldTerm(word.text);
    // Snowball only cuts endings: a word whose first letters no matched stem shares need not be stemmed.
    const stem = stemHeads.has(folded.slice(0, 2)) ? stemmed(word.text) : null;
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
      const foldedPart = foldTerm(part.text);
      if (matched.some((w) => w.folded === foldedPart || w.parts.has(foldedPart) || (w.prefix && foldedPart.startsWith(w.folded)))) {
        highlights.push({ start: part.start, end: part.end, kind: 'part' });
      }
    }
    if (matched.some((w) => w.parts.has(folded))) highlights.push({ start: word.start, end: word.end, kind: 'part' });
  }
  return highlights;
}
