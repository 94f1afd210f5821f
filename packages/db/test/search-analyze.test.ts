import { describe, expect, it } from 'vitest';
import { analyseText, analyseTextByPattern, isAscii } from '../src/search/analyze';
import { evidentLanguage, evidentLanguageOfAscii } from '../src/search/language';

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

  it('finds in mostly-ASCII text, piece by piece, what the Unicode pattern finds in it whole', () => {
    const random = seeded(15);
    // ASCII as above, and letters, marks, ideographs, symbols and spaces that are not.
    const alphabet = [...'aAbBzZ0189____    .,-:;/()\'"!?\n\t<>{}', 'é', 'É', '\u0301', 'ß', 'İ', 'ﬁ', 'Ａ', '①', '—', '✓', '→', '東', 'ア', '\u00a0', '😀', 'Ω'];
    const samples = ['PASS ✓ totals the cart', 'naïve_user—OrderSync → résumé', 'Ｑ３ ﬁle_ﬁx 東京Tower'];
    for (let i = 0; i < 3000; i++) {
      const length = Math.floor(random() * 60);
      samples.push(Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    }
    for (const text of samples) expect(analyseText(text), text).toEqual(analyseTextByPattern(text));
  });
});

describe('isAscii', () => {
  it('answers for words (looked at by character) and texts (counted natively) alike', () => {
    for (const length of [0, 1, 5, 23, 24, 25, 200]) {
      const plain = 'a'.repeat(length);
      expect(isAscii(plain), `${length}`).toBe(true);
      if (length > 0) {
        expect(isAscii(`${plain.slice(1)}é`), `${length} é`).toBe(false);
        expect(isAscii(`€${plain.slice(1)}`), `${length} €`).toBe(false);
        expect(isAscii(`${plain.slice(1)}\x7f`), `${length} DEL`).toBe(true);
      }
    }
  });
});

describe('evidentLanguageOfAscii', () => {
  it("picks the language evidentLanguage picks from the text's analysed words", () => {
    const samples = [
      'the deploy of the OrderSync service is done',
      'la rotation des cles est faite dans le cluster pour les serveurs',
      'der Server und die Datenbank ist nicht bereit, wir werden rotieren',
      'el servidor y los clientes para la base de datos',
      'il server della base che non sono stato',
      'het is een server van de klant die niet werkt',
      'os servidores da base para uma nova versao',
      'LA ROTATION DES CLES EST FAITE', 'Der_Server und_die', 'zu im von', '', 'x',
    ];
    const random = seeded(7);
    const words = ['the', 'la', 'der', 'die', 'el', 'het', 'os', 'und', 'est', 'server', 'werden', 'should', 'cette', 'Wurde', 'x_y', 'k8s'];
    for (let i = 0; i < 300; i++) samples.push(Array.from({ length: 1 + Math.floor(random() * 12) }, () => words[Math.floor(random() * words.length)]).join(' '));
    const languages = new Set<string>();
    for (const text of samples) {
      const expected = evidentLanguage(analyseText(text));
      languages.add(expected);
      expect(evidentLanguageOfAscii(text), text).toBe(expected);
    }
    expect(languages.size).toBeGreaterThanOrEqual(5);
  });
});
