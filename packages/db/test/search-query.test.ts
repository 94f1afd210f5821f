import { describe, expect, it } from 'vitest';
import { analyseText } from '../src/search/analyze';
import { evidentLanguages } from '../src/search/language';
import { memorySearchTerms } from '../src/search/memory-terms';
import { booleanAgainst, parseSearchQuery } from '../src/search/query';
import { searchTag } from '../src/search/terms';

const tag = searchTag('u', 'usr_1');
const words = (q: string) => parseSearchQuery(q).words.map((w) => w.text);

describe('analyseText', () => {
  it('splits identifiers at case changes, digits and underscores, keeping offsets in the original text', () => {
    const [order, invoice, version, server] = analyseText('OrderSync createInvoice v1 HTTPServer');
    expect(order!.parts.map((p) => p.text)).toEqual(['order', 'sync']);
    expect(invoice!.parts.map((p) => p.text)).toEqual(['create', 'invoice']);
    expect(version!.parts.map((p) => p.text)).toEqual(['v', '1']);
    expect(server!.parts.map((p) => p.text)).toEqual(['http', 'server']);
    const text = 'Zoë met the user_id';
    const [zoe, , , id] = analyseText(text);
    expect(text.slice(zoe!.start, zoe!.end)).toBe('Zoë');
    expect(id!.parts.map((p) => text.slice(p.start, p.end))).toEqual(['user', 'id']);
  });

  it('keeps single words unsplit and ideographs one by one', () => {
    expect(analyseText('deploy')[0]!.parts).toEqual([]);
    expect(analyseText('東京').map((w) => w.text)).toEqual(['東', '京']);
  });
});

describe('memorySearchTerms', () => {
  it('writes the words in order under the owner tag, then stems and parts under their own tags', () => {
    const { searchTerms, counts, length } = memorySearchTerms(tag, 'Rotated the OrderSync secrets');
    const tokens = searchTerms.split(' ');
    expect(tokens.slice(0, 4)).toEqual([`${tag}rotated`, `${tag}the`, `${tag}ordersync`, `${tag}secrets`]);
    expect(tokens).toContain(`s${tag}rotat`);
    expect(tokens).toContain(`s${tag}secret`);
    expect(tokens).toContain(`p${tag}order`);
    expect(tokens).toContain(`p${tag}sync`);
    expect(tokens.every((t) => /^[\p{L}\p{N}_]+$/u.test(t) && t.length <= 84)).toBe(true);
    expect(length).toBe(4);
    expect(counts.get('wsecrets')).toBe(1);
    expect(counts.get('ssecret')).toBe(1);
  });

  it('stems in the language the memory is evidently written in', () => {
    expect(evidentLanguages(['nous', 'avons', 'changé', 'la', 'rotation', 'des', 'clés'])[0]).toBe('french');
    expect(evidentLanguages(['wir', 'haben', 'die', 'schlüssel', 'rotiert'])[0]).toBe('german');
    expect(evidentLanguages(['kubernetes'])[0]).toBe('english');
    expect(memorySearchTerms(tag, 'Nous avons changé la rotation des clés').counts.has('sclé')).toBe(true);
  });
});

describe('parseSearchQuery', () => {
  it('drops question filler in each language unless nothing else is left', () => {
    expect(words('how do we rotate secrets?')).toEqual(['rotate', 'secrets']);
    expect(words('comment avons-nous choisi la base de données')).toEqual(['choisi', 'base', 'données']);
    expect(words('Wie haben wir die Schlüssel rotiert')).toEqual(['schlüssel', 'rotiert']);
    expect(words('東京タワーの近くで会議')).toEqual(['東', '京', 'タ', 'ワ', 'ー', '近', '会', '議']);
    expect(words('the who')).toEqual(['the', 'who']);
  });

  it('treats quoted text as a phrase and words written together as an implicit one', () => {
    const quoted = parseSearchQuery('"error rate" alerts');
    expect(quoted.phrases).toEqual([{ words: ['error', 'rate'], quoted: true }]);
    expect(parseSearchQuery('release v1.32.2').phrases).toEqual([{ words: ['v1', '32', '2'], quoted: false }]);
    // An unclosed quote quotes nothing.
    expect(parseSearchQuery('"error rate').phrases).toEqual([]);
  });

  it('searches the last word and starred words as prefixes', () => {
    const parsed = parseSearchQuery('terraf* state kubern');
    expect(parsed.words.map((w) => [w.text, w.prefix])).toEqual([
      ['terraf', true],
      ['state', false],
      ['kubern', true],
    ]);
    expect(parseSearchQuery('"error rate"').words.some((w) => w.prefix)).toBe(false);
    expect(parseSearchQuery('fix a').words.find((w) => w.text === 'a')).toBeUndefined();
  });

  it('keeps identifier parts of two characters or more', () => {
    expect(parseSearchQuery('OrderSync').words[0]!.parts).toEqual(['order', 'sync']);
    expect(parseSearchQuery('Q3').words[0]!.parts).toEqual([]);
  });

  it('never lets user text become a FULLTEXT operator', () => {
    for (const q of ['+k -b "c" d* (e) ~f <g >h @2', '"""', '*', 'a"b"c', '>>"<<', 'x*y*', "' OR 1=1 --"]) {
      const against = booleanAgainst([tag], parseSearchQuery(q));
      // Operators only where we put them: a leading > or <, a trailing *, whole quoted phrases of tagged words.
      const rest = against.replace(/"(?:[^"\s]+ )*[^"\s]+"/g, '').split(' ').filter(Boolean);
      for (const token of rest) expect(token).toMatch(/^[<>]?[\p{L}\p{N}_]+\*?$/u);
    }
  });

  it('caps the number of query words', () => {
    expect(words(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
  });
});
