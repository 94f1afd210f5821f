import type { QueryWord, SearchQuery } from '../../src/search/query';
import type { OwnersStats } from '../../src/search/stats';

/**
 * The ranking rules of search/rank.ts written plainly, as the oracle its optimised
 * rankCandidates is compared with (search-rank-oracle.test.ts). It reads the same inputs
 * (the candidates' search_terms columns, the parsed query, the owner's statistics) with
 * maps and loops, and keeps its own copy of every constant: a change of a weight, of K1 or
 * B, or of a phrase bonus in rank.ts shows up as a difference.
 *
 * BM25 over the owner's statistics: idf(df) = ln(1 + (N − df + ½) / (df + ½)) with N the
 * owner's memories (at least the candidates), a memory's length its words, the average
 * length the owner's. A query word scores by the best of four ways it matches a memory,
 * each weighted: the word itself (its term frequency), its stem, as an identifier's part
 * (the word among a memory's parts, or its own parts among a memory's words and parts,
 * averaged), or as the beginning of longer words and parts (a prefix word). A phrase found
 * as written adds its words' IDF times a bonus (quoted: K1 + 1; written together: ½).
 * The score is the share of the ideal (every word exactly, every phrase).
 */
const WEIGHTS = { exact: 1, stem: 0.7, part: 0.5, prefix: 0.35 };
const K1 = 1.2;
const B = 0.75;
const QUOTED_BONUS = K1 + 1;
const TOGETHER_BONUS = 0.5;

export interface ReferenceRanked {
  id: string;
  score: number;
  terms: string[];
  phrases: string[];
}

/** Accent-folded, as the tables' collation compares. */
const fold = (term: string) => term.normalize('NFD').replace(/\p{M}/gu, '');

/** A memory as its search_terms column says, every term folded. */
interface Memory {
  id: string;
  /** The words, in order. */
  words: string[];
  stems: Set<string>;
  parts: Set<string>;
}

/** search_terms: `<tag><word>` per word in order, then `s<tag><stem>` and `p<tag><part>` once each. */
function readMemory(row: { id: string; searchTerms: string }, tag: string): Memory {
  const memory: Memory = { id: row.id, words: [], stems: new Set(), parts: new Set() };
  for (const token of row.searchTerms.split(' ')) {
    if (token.startsWith(`s${tag}`)) memory.stems.add(fold(token.slice(tag.length + 1)));
    else if (token.startsWith(`p${tag}`)) memory.parts.add(fold(token.slice(tag.length + 1)));
    else if (token.startsWith(tag) && token.length > tag.length) memory.words.push(fold(token.slice(tag.length)));
  }
  return memory;
}

const count = (items: readonly string[], wanted: string) => items.filter((item) => item === wanted).length;

function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, i) => words[start + i] === word)) return true;
  }
  return false;
}

export function referenceRank(rows: readonly { id: string; searchTerms: string }[], tag: string, query: SearchQuery, stats: OwnersStats, limit: number): ReferenceRanked[] {
  const memories = rows.map((row) => readMemory(row, tag));
  const n = Math.max(stats.docs, rows.length, 1);
  const averageLength = stats.tokens > 0 && stats.docs > 0 ? stats.tokens / stats.docs : 20;
  const idf = (df: number) => {
    const d = Math.min(df, n);
    return Math.log(1 + (n - d + 0.5) / (d + 0.5));
  };
  const df = (term: string) => stats.termDocs.get(term) ?? 0;
  /** Words and parts of a memory that begin with `prefix` and are longer. */
  const longer = (memory: Memory, prefix: string) =>
    memory.words.filter((word) => word.length > prefix.length && word.startsWith(prefix)).length +
    [...memory.parts].filter((part) => part.length > prefix.length && part.startsWith(prefix)).length;

  const wordIdf = new Map<QueryWord, number>();
  for (const w of query.words) {
    const known = Math.max(df(`w${w.text}`), df(`p${w.text}`), ...w.stems.map((stem) => df(`s${stem}`)));
    // A word the owner never wrote (typed halfway) counts the candidates it begins a word of.
    const typedHalfway = w.prefix ? memories.filter((memory) => longer(memory, fold(w.text)) > 0).length : 0;
    wordIdf.set(w, idf(known > 0 ? known : typedHalfway));
  }
  const phraseBonus = query.phrases.map(
    (phrase) => phrase.words.reduce((sum, word) => sum + idf(df(`w${word}`)), 0) * (phrase.quoted ? QUOTED_BONUS : TOGETHER_BONUS),
  );
  const ideal = [...wordIdf.values()].reduce((a, b) => a + b, 0) + phraseBonus.reduce((a, b) => a + b, 0);

  const scored = [];
  for (const memory of memories) {
    const norm = K1 * (1 - B + (B * memory.words.length) / averageLength);
    const saturate = (tf: number) => (tf === 0 ? 0 : (tf * (K1 + 1)) / (tf + norm));
    let raw = 0;
    let exactWords = 0;
    const terms: string[] = [];
    for (const w of query.words) {
      const text = fold(w.text);
      const weight = wordIdf.get(w)!;
      const exact = weight * saturate(count(memory.words, text)) * WEIGHTS.exact;
      const stem = (w.stems.some((s) => memory.stems.has(fold(s))) ? weight * saturate(1) : 0) * WEIGHTS.stem;
      const asPart = memory.parts.has(text) ? weight * saturate(1) : 0;
      let ownParts = 0;
      for (const part of w.parts) {
        const p = fold(part);
        ownParts += idf(Math.max(df(`w${part}`), df(`p${part}`))) * saturate(count(memory.words, p) + (memory.parts.has(p) ? 1 : 0));
      }
      if (w.parts.length > 0) ownParts /= w.parts.length;
      const part = Math.max(asPart, ownParts) * WEIGHTS.part;
      const prefix = (w.prefix ? weight * saturate(longer(memory, text)) : 0) * WEIGHTS.prefix;
      const best = Math.max(exact, stem, part, prefix);
      if (best > 0) {
        raw += best;
        terms.push(w.text);
        if (exact === best) exactWords++;
      }
    }
    const phrases: string[] = [];
    query.phrases.forEach((phrase, i) => {
      if (containsPhrase(memory.words, phrase.words.map(fold))) {
        raw += phraseBonus[i]!;
        phrases.push(phrase.words.join(' '));
      }
    });
    if (raw > 0) scored.push({ memory, raw, exactWords, terms, phrases });
  }
  // Best first; scores equal to 1e-9 are ties, broken by more words matched, then more of
  // them exactly, then the newest memory (the larger id).
  scored.sort(
    (a, b) =>
      Math.round(b.raw * 1e9) - Math.round(a.raw * 1e9) ||
      b.terms.length - a.terms.length ||
      b.exactWords - a.exactWords ||
      (a.memory.id < b.memory.id ? 1 : a.memory.id > b.memory.id ? -1 : 0),
  );
  return scored.slice(0, limit).map((s) => ({
    id: s.memory.id,
    score: ideal > 0 ? Math.min(1, Math.round((s.raw / ideal) * 1e4) / 1e4) : 0,
    terms: s.terms,
    phrases: s.phrases,
  }));
}
