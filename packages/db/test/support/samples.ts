/** A small deterministic generator (mulberry32). */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Characters outside ASCII that the word finders treat differently: letters, a combining
 * mark, ligatures and full-width forms that NFKC changes, a circled digit, dashes and symbols,
 * ideographs, a no-break space, an astral emoji.
 */
export const NOT_ASCII = ['é', 'É', '\u0301', 'ß', 'İ', 'ﬁ', 'Ａ', '①', '—', '✓', '→', '東', 'ア', '\u00a0', '😀', 'Ω'] as const;

/** Known mostly-ASCII texts with some of NOT_ASCII in them, checked before the random ones. */
export const MIXED_TEXTS = ['PASS ✓ totals the cart', 'naïve_user—OrderSync → résumé', 'Ｑ３ ﬁle_ﬁx 東京Tower'] as const;

/** Known cases first, then `count` random texts of up to `maxLength` characters from `alphabet`, the same every run. */
export function sampleTexts(options: { seed: number; alphabet: readonly string[]; count: number; maxLength: number; known: readonly string[] }): string[] {
  const random = seeded(options.seed);
  const { alphabet } = options;
  const samples = [...options.known];
  for (let i = 0; i < options.count; i++) {
    const length = Math.floor(random() * options.maxLength);
    samples.push(Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]!).join(''));
  }
  return samples;
}
