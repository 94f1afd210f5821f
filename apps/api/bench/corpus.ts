import { words as popularWords } from 'popular-english-words/words.js';

/**
 * Deterministic benchmark data: English words drawn with Zipf-distributed frequencies
 * (word of rank r has probability ∝ 1/r^s), so a few words ("time", "new", "system") are
 * in most memories of every tenant and most words are rare — like real text.
 */

/** mulberry32: small, fast, seeded. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY_SIZE = 20_000;
const ZIPF_EXPONENT = 1.0;

/** The vocabulary, most frequent first: real English words of three letters or more. */
export const VOCABULARY: readonly string[] = (popularWords as string[])
  .filter((word) => /^[a-z]{3,}$/.test(word) && word !== 'nbsp')
  .slice(0, VOCABULARY_SIZE);

// Cumulative Zipf weights, for sampling a rank by binary search.
const cumulative = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / (rank + 1) ** ZIPF_EXPONENT);
  const total = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  return weights.map((weight) => (running += weight / total));
})();

export function zipfWord(random: () => number): string {
  const target = random();
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return VOCABULARY[low]!;
}

/** A memory-like text of 14–40 words. */
export function memoryText(random: () => number): string {
  const length = 14 + Math.floor(random() * 27);
  const words = Array.from({ length }, () => zipfWord(random));
  return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
}

/** The memories of one tenant, reproducible from its index. */
export function tenantMemories(tenantIndex: number, count: number): string[] {
  const random = seededRandom(0x5eed + tenantIndex * 7919);
  return Array.from({ length: count }, () => memoryText(random));
}

/**
 * Search queries "<common word> <rarer word>", the rarer word taken from the tenant's own
 * texts so every query has matches, and the common one shared by every tenant.
 */
export function searchQueries(texts: readonly string[], count: number, seed = 42): string[] {
  const random = seededRandom(seed);
  const common = VOCABULARY.slice(30, 60);
  const rankOf = new Map(VOCABULARY.map((word, rank) => [word, rank]));
  const rarer = [...new Set(texts.flatMap((text) => text.toLowerCase().replace(/[^a-z ]/g, '').split(' ')))].filter((word) => {
    const rank = rankOf.get(word) ?? 0;
    return rank >= 500 && rank < 5000;
  });
  return Array.from({ length: count }, () => `${common[Math.floor(random() * common.length)]} ${rarer[Math.floor(random() * rarer.length)]}`);
}

/**
 * Queries in the shapes search handles beyond plain words, from the tenant's own texts:
 * a quoted phrase (two adjacent words), a word typed halfway (prefix), and a question
 * around a common and a rarer word.
 */
export function typedQueries(texts: readonly string[], count: number, seed = 7): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const words = pick(texts).toLowerCase().replace(/[^a-z ]/g, '').split(' ');
    const at = Math.floor(random() * (words.length - 1));
    const long = words.filter((word) => word.length >= 7);
    if (i % 3 === 0) return `"${words[at]} ${words[at + 1]}"`;
    if (i % 3 === 1 && long.length > 0) return `${words[at]} ${pick(long).slice(0, 5)}`;
    return `how did we ${words[at]} the ${words[at + 1]}?`;
  });
}
