import { describe, expect, it } from 'vitest';
import { analyseText, analyseTextByPattern } from '../src/search/analyze';

/** A small deterministic generator (mulberry32). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('analyseText on ASCII text', () => {
  it('finds the words, offsets and identifier parts the Unicode pattern finds', () => {
    const random = seeded(14);
    // Letters of both cases, digits, underscores (joining and dangling), spaces and punctuation.
    const alphabet = 'aAbBzZqQ0189____    .,-:;/()[]\'"*+!?\n\t~`@#$%^&=|\\<>{}';
    const samples = ['OrderSync createInvoice HTTPServer', 'user_id __x__ a_b_c _y x__', 'v1.32.2 Q3 k8s 3rd node20', 'getHTTPResponseCode ABCdef', 'x'.repeat(90), ''];
    for (let i = 0; i < 2000; i++) {
      const length = Math.floor(random() * 60);
      samples.push(Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    }
    for (const text of samples) expect(analyseText(text), text).toEqual(analyseTextByPattern(text));
  });

  it('keeps the words of text that is not ASCII on the Unicode pattern', () => {
    expect(analyseText('Le résumé du café, 東京').map((word) => word.text)).toEqual(['le', 'résumé', 'du', 'café', '東', '京']);
  });
});
