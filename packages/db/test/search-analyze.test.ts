import { describe, expect, it } from 'vitest';
import { analyseText, analyseTextByPattern, isAscii } from '../src/search/analyze';
import { evidentLanguage, evidentLanguageOfAscii } from '../src/search/language';
import { MIXED_TEXTS, NOT_ASCII, sampleTexts, seeded } from './support/samples';


describe('analyseText on ASCII text', () => {
  it('finds the words, offsets and identifier parts the Unicode pattern finds', () => {
    const samples = sampleTexts({
      seed: 14,
      // Letters of both cases, digits, underscores (joining and dangling), spaces and punctuation.
      alphabet: [...'aAbBzZqQ0189____    .,-:;/()[]\'"*+!?\n\t~`@#$%^&=|\\<>{}'],
      count: 2000,
      maxLength: 60,
      known: ['OrderSync createInvoice HTTPServer', 'user_id __x__ a_b_c _y x__', 'v1.32.2 Q3 k8s 3rd node20', 'getHTTPResponseCode ABCdef', 'x'.repeat(90), ''],
    });
    for (const text of samples) expect(analyseText(text), text).toEqual(analyseTextByPattern(text));
  });

  it('keeps the words of text that is not ASCII on the Unicode pattern', () => {
    expect(analyseText('Le résumé du café, 東京').map((word) => word.text)).toEqual(['le', 'résumé', 'du', 'café', '東', '京']);
  });

  it('finds in mostly-ASCII text, piece by piece, what the Unicode pattern finds in it whole', () => {
    const samples = sampleTexts({
      seed: 15,
      // ASCII as above, and letters, marks, ideographs, symbols and spaces that are not.
      alphabet: [...'aAbBzZ0189____    .,-:;/()\'"!?\n\t<>{}', ...NOT_ASCII],
      count: 3000,
      maxLength: 60,
      known: MIXED_TEXTS,
    });
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
