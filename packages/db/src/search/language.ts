/// <reference path="./snowball-stemmers.d.ts" />
// A static import, so the service's bundle (apps/api/build.mjs) carries the stemmers.
import snowball from 'snowball-stemmers';
import { forEachAsciiWord, isAscii } from './analyze';

/**
 * Languages a memory or a query is written in, as far as its words make evident, and
 * their Snowball stemmers. Memories are short and mixed with code, so detection is a
 * count of each language's function words: enough to pick French for "la rotation des
 * clés", not a general-purpose classifier.
 */

export const STEM_LANGUAGES = ['english', 'french', 'german', 'spanish', 'italian', 'dutch', 'portuguese'] as const;
export type StemLanguage = (typeof STEM_LANGUAGES)[number];

type SnowballStemmer = ReturnType<typeof snowball.newStemmer>;

// Function words that mark a language (frequent, short, rarely shared with English).
const MARKERS: Record<StemLanguage, readonly string[]> = {
  english: ['the', 'and', 'is', 'are', 'was', 'were', 'of', 'to', 'with', 'that', 'this', 'for', 'we', 'it', 'be', 'on', 'have', 'has', 'not', 'should', 'which', 'from', 'after', 'when'],
  french: ['le', 'la', 'les', 'des', 'du', 'un', 'une', 'est', 'et', 'dans', 'pour', 'avec', 'sur', 'que', 'qui', 'nous', 'pas', 'au', 'aux', 'ce', 'cette', 'sont', 'être', 'été', 'après', 'où'],
  german: ['der', 'die', 'das', 'und', 'ist', 'nicht', 'mit', 'den', 'dem', 'ein', 'eine', 'für', 'auf', 'wir', 'sind', 'wird', 'werden', 'auch', 'bei', 'nach', 'von', 'zu', 'im', 'wurde', 'über'],
  spanish: ['el', 'los', 'las', 'del', 'y', 'es', 'en', 'por', 'con', 'para', 'una', 'que', 'se', 'su', 'al', 'como', 'pero', 'está', 'son', 'fue'],
  italian: ['il', 'lo', 'gli', 'della', 'di', 'che', 'è', 'per', 'con', 'una', 'sono', 'non', 'del', 'nel', 'alla', 'come', 'anche', 'stato'],
  dutch: ['het', 'een', 'van', 'en', 'is', 'niet', 'met', 'voor', 'op', 'zijn', 'wordt', 'dat', 'ook', 'bij', 'naar', 'wij', 'worden'],
  portuguese: ['os', 'as', 'da', 'do', 'das', 'dos', 'e', 'é', 'em', 'para', 'com', 'uma', 'não', 'que', 'no', 'na', 'ao', 'foi', 'são'],
};
// Letters that only some languages use: a hint when a text is too short for function words.
const LETTER_HINTS: [RegExp, StemLanguage][] = [
  [/[äöüß]/u, 'german'],
  [/[éèêëçàâîïôûùœ]/u, 'french'],
  [/[ñ¿¡]/u, 'spanish'],
  [/[ãõ]/u, 'portuguese'],
];

/** Each marker word's languages, by their place in STEM_LANGUAGES. */
const MARKER_LANGUAGES = new Map<string, number[]>();
STEM_LANGUAGES.forEach((language, index) => {
  for (const word of MARKERS[language]) MARKER_LANGUAGES.set(word, [...(MARKER_LANGUAGES.get(word) ?? []), index]);
});

/** How much the words point to each language (by its place in STEM_LANGUAGES). */
function languageScores(words: Iterable<string>): number[] {
  const score: number[] = STEM_LANGUAGES.map(() => 0);
  for (const word of words) {
    const languages = MARKER_LANGUAGES.get(word);
    if (languages) for (const language of languages) score[language]! += 1;
    if (!isAscii(word)) for (const [pattern, language] of LETTER_HINTS) if (pattern.test(word)) score[STEM_LANGUAGES.indexOf(language)]! += 0.5;
  }
  return score;
}

/**
 * The languages a text's words point to, most likely first; English when nothing
 * points anywhere (notes about code are mostly English).
 */
export function evidentLanguages(words: readonly string[]): StemLanguage[] {
  const score = languageScores(words);
  const ranked = STEM_LANGUAGES.map((language, index) => ({ language, index })).filter(({ index }) => score[index]! > 0);
  ranked.sort((a, b) => score[b.index]! - score[a.index]! || a.index - b.index);
  return ranked.length === 0 ? ['english'] : ranked.map(({ language }) => language);
}

/** How much the words point to `language`: one per marker word, a half per letter only it uses. */
export function languageEvidence(words: readonly { text: string }[], language: StemLanguage): number {
  return languageScores(words.map((word) => word.text))[STEM_LANGUAGES.indexOf(language)]!;
}

/** The first of evidentLanguages for these words (a memory's language), without ranking the others. */
export function evidentLanguage(words: readonly { text: string }[]): StemLanguage {
  return firstLanguage(languageScores(words.map((word) => word.text)));
}

function firstLanguage(score: readonly number[]): StemLanguage {
  let best = 0;
  for (let index = 1; index < score.length; index++) if (score[index]! > score[best]!) best = index;
  return STEM_LANGUAGES[best]!;
}

/**
 * An ASCII word of letters only, lower-cased, as a number (5 bits a letter, a = 1): the
 * key marker words of ASCII letters are looked up by in ASCII text, without cutting the
 * word out. -1 for anything else.
 */
const PACKED_LETTERS = 6;
function packedLetters(text: string, start: number, end: number): number {
  if (end - start > PACKED_LETTERS) return -1;
  let key = 0;
  for (let i = start; i < end; i++) {
    const lower = text.charCodeAt(i) | 0x20;
    if (lower < 97 || lower > 122) return -1;
    key = key * 32 + (lower - 96);
  }
  return key;
}

/** MARKER_LANGUAGES of the markers written in ASCII letters, by packedLetters. */
const ASCII_MARKER_LANGUAGES = new Map<number, number[]>();
for (const [word, languages] of MARKER_LANGUAGES) {
  if (!/^[a-z]+$/.test(word)) continue;
  const key = packedLetters(word, 0, word.length);
  if (key < 0) throw new Error(`marker "${word}" is longer than ${PACKED_LETTERS} letters`);
  ASCII_MARKER_LANGUAGES.set(key, languages);
}

/**
 * evidentLanguage of an ASCII text's words (analyseText's), found without analysing the
 * text: an ASCII word has no letter hints, lower-casing is all its normalisation does to
 * one short enough to be a marker, and a marker's letters are looked up where they stand.
 */
export function evidentLanguageOfAscii(text: string): StemLanguage {
  const score: number[] = STEM_LANGUAGES.map(() => 0);
  forEachAsciiWord(text, (start, end) => {
    const languages = ASCII_MARKER_LANGUAGES.get(packedLetters(text, start, end));
    if (languages) for (const language of languages) score[language]! += 1;
  });
  return firstLanguage(score);
}

/** Words with no letters to stem (numbers, ideographs) are left out of the stem family. */
const STEMMABLE = /^[\p{Script=Latin}\p{M}]+$/u;
/** Distinct words per language kept before a cache starts over (stemming a word costs more than looking it up). */
const STEM_CACHE_WORDS = 50_000;
const stemmers = new Map<StemLanguage, { stemmer: SnowballStemmer; cache: Map<string, string> }>();

/** The Snowball stem of a lower-cased word, or null for words that have none (digits, non-Latin scripts). */
export function stemOf(word: string, language: StemLanguage): string | null {
  if (!STEMMABLE.test(word)) return null;
  let entry = stemmers.get(language);
  if (!entry) {
    entry = { stemmer: snowball.newStemmer(language), cache: new Map() };
    stemmers.set(language, entry);
  }
  let stem = entry.cache.get(word);
  if (stem === undefined) {
    if (entry.cache.size >= STEM_CACHE_WORDS) entry.cache.clear();
    stem = entry.stemmer.stem(word);
    entry.cache.set(word, stem);
  }
  return stem.length > 0 ? stem : null;
}

/**
 * Words a question is made of rather than what it asks about ("how do we …", "comment
 * est-ce que …", "wie haben wir …"). Dropped from queries, never from the index: "what"
 * in a memory is still found by a query that is only "what".
 */
export const QUERY_FILLER: ReadonlySet<string> = new Set([
  // InnoDB's default stopwords (the list search used before), then English question words.
  'a', 'about', 'an', 'are', 'as', 'at', 'be', 'by', 'com', 'de', 'en', 'for', 'from', 'how', 'i', 'in', 'is', 'it', 'la', 'of', 'on', 'or',
  'that', 'the', 'this', 'to', 'was', 'what', 'when', 'where', 'who', 'will', 'with', 'und', 'www',
  'do', 'does', 'did', 'done', 'should', 'shall', 'can', 'could', 'would', 'might', 'must', 'we', 'our', 'us', 'you', 'your', 'they',
  'their', 'my', 'me', 'have', 'has', 'had', 'were', 'been', 'being', 'which', 'why', 'whom', 'whose', 'there', 'any', 'some', 'again',
  'tell', 'know', 'remember', 'so', 'and', 'into', 'its', 'these', 'those', 's', 't', 'anything', 'something',
  // French.
  'le', 'les', 'des', 'du', 'un', 'une', 'est', 'et', 'que', 'qu', 'quoi', 'quel', 'quelle', 'quels', 'quelles', 'comment', 'pourquoi',
  'quand', 'où', 'qui', 'ce', 'cette', 'ces', 'c', 'l', 'd', 'j', 'nous', 'vous', 'on', 'il', 'elle', 'ils', 'elles', 'avons', 'avez', 'ont',
  'été', 'faut', 'dans', 'pour', 'sur', 'au', 'aux', 'notre', 'nos', 'votre', 'se', 'sont', 'faire', 'fait', 'peut', 'doit',
  // German.
  'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'ist', 'sind', 'waren', 'was', 'wie', 'warum', 'wann',
  'wo', 'wer', 'welche', 'welcher', 'welches', 'haben', 'hatten', 'wir', 'unser', 'unsere', 'ihr', 'sie', 'es', 'zu', 'für', 'im',
  'mit', 'von', 'auf', 'bei', 'wird', 'werden', 'wurde', 'soll', 'sollen', 'sollten', 'kann', 'können',
  // Spanish, Italian, Dutch, Portuguese: the question words.
  'qué', 'cómo', 'por', 'cuándo', 'dónde', 'quién', 'perché', 'quando', 'dove', 'chi', 'wat', 'hoe', 'waarom', 'wanneer',
  'waar', 'wie', 'hebben', 'het', 'een', 'como', 'onde', 'quem',
]);
