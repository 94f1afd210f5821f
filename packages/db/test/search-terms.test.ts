import { describe, expect, it } from 'vitest';
import { againstTerms, indexTerms, queryWords, searchTag, tokenize, tokenizeByPattern } from '../src/search/terms';
import { MIXED_TEXTS, NOT_ASCII, sampleTexts } from './support/samples';

describe('tokenize', () => {
  it('lower-cases, NFKC-normalises and splits on anything but letters, marks and digits', () => {
    expect(tokenize('Q3 Roadmap: Go & UI — v1.2.3, e-mail!')).toEqual(['q3', 'roadmap', 'go', 'ui', 'v1', '2', '3', 'e', 'mail']);
    expect(tokenize('Ｆｕｌｌｗｉｄｔｈ')).toEqual(['fullwidth']);
    expect(tokenize('Zoe\u0308')).toEqual(tokenize('Zoë'));
  });

  it('keeps underscore identifiers whole and in parts', () => {
    expect(tokenize('user_id __x__ a_b_c')).toEqual(['user_id', 'user', 'id', 'x', 'a_b_c', 'a', 'b', 'c']);
  });

  it('makes every ideograph a token', () => {
    expect(tokenize('東京タワー')).toEqual(['東', '京', 'タ', 'ワ', 'ー']);
  });

  it('truncates words so prefixed tokens stay within innodb_ft_max_token_size (84)', () => {
    const tag = searchTag('u', 'usr_x');
    const [token] = indexTerms(tag, 'a'.repeat(200)).split(' ');
    expect(token).toHaveLength(84);
  });

  it('keeps duplicates for term frequency', () => {
    expect(tokenize('deploy deploy deploy')).toHaveLength(3);
  });

  it('tokenizes ASCII text as the Unicode pattern does', () => {
    const samples = sampleTexts({
      seed: 21,
      alphabet: [...'aZbY09__  .,-/()\'"*+!?\n\t~`@#$%^&=|\\<>{}'],
      count: 2000,
      maxLength: 50,
      known: ['User_ID __x__ A_b_C', 'Q3 Roadmap: Go & UI', 'x'.repeat(200), 'y_'.repeat(60), ''],
    });
    for (const text of samples) expect(tokenize(text), text).toEqual(tokenizeByPattern(text));
  });

  it('tokenizes mostly-ASCII text, piece by piece, as the Unicode pattern does it whole', () => {
    const samples = sampleTexts({
      seed: 22,
      alphabet: [...'aZbY09__  .,-/()\'"!?\n\t<>', ...NOT_ASCII],
      count: 3000,
      maxLength: 50,
      known: MIXED_TEXTS,
    });
    for (const text of samples) expect(tokenize(text), text).toEqual(tokenizeByPattern(text));
  });
});

describe('search tags and terms', () => {
  it('derives a stable 9-character tag per owner kind', () => {
    expect(searchTag('u', 'usr_1')).toMatch(/^u[0-9a-f]{8}$/);
    expect(searchTag('u', 'usr_1')).toBe(searchTag('u', 'usr_1'));
    expect(searchTag('o', 'usr_1')).not.toBe(searchTag('u', 'usr_1'));
  });

  it('prefixes every indexed word, so each posting list holds one owner', () => {
    const tag = searchTag('u', 'usr_1');
    expect(indexTerms(tag, 'Go UI')).toBe(`${tag}go ${tag}ui`);
  });

  it('drops stopwords from queries unless nothing else is left, and de-duplicates', () => {
    expect(queryWords('the cost of the deploy deploy')).toEqual(['cost', 'deploy']);
    expect(queryWords('The Who')).toEqual(['the', 'who']);
    expect(queryWords('+foo -bar "baz*')).toEqual(['foo', 'bar', 'baz']);
    expect(queryWords('*** "" ()')).toEqual([]);
  });

  it('never lets FULLTEXT operators through', () => {
    const against = againstTerms([searchTag('u', 'a'), searchTag('o', 'b')], queryWords('+k -b "c" d* (e) ~f <g >h @2'));
    expect(against).toMatch(/^[a-z0-9 ]+$/);
    expect(against.split(' ')).toHaveLength(2 * 9);
  });

  it('caps the number of query words', () => {
    expect(queryWords(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
  });
});
