import { isAscii } from './analyze';
import { stemOf, type StemLanguage } from './language';

/**
 * The words a language knows, from its Hunspell dictionary's word list (.dic): what typo
 * correction leaves alone (a word in neither the owner's vocabulary nor any list is
 * corrected, corrections.ts). Hunspell lists a word once with flags for its endings; we
 * keep each listed word and its Snowball stem, and know a query word when it is listed or
 * its stem is a listed word's stem (requests ~ request, déploiements ~ déploiement).
 */
export interface SpellingDictionary {
  knows(word: string): boolean;
}

export interface WordList {
  language: StemLanguage;
  /** The .dic file's text: a count, then one `word[/flags]` per line. */
  dic: string;
}

const normalise = (word: string) => (isAscii(word) ? word.toLowerCase() : word.normalize('NFKC').toLowerCase());

/** The words of a .dic file: its first line is a count, indented lines are comments, `\/` is a slash. */
function listedWords(dic: string): string[] {
  const words: string[] = [];
  const lines = dic.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length === 0 || line.charCodeAt(0) === 9 || line.charCodeAt(0) === 32) continue;
    let end = 0;
    while (end < line.length) {
      const code = line.charCodeAt(end);
      if (code === 47 /* / */ && line.charCodeAt(end - 1) !== 92 /* \ */) break;
      if (code === 9 || code === 32 || code === 13) break;
      end++;
    }
    const word = line.slice(0, end).replaceAll('\\/', '/');
    if (word.length > 0) words.push(normalise(word));
  }
  return words;
}

/** Most listed words beginning with a stem that are stemmed to see whether one shares it. */
const MAX_STEM_SIBLINGS = 64;

/** The index of the first of `sorted` not less than `key`. */
function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Each language's listed words, sorted: a word is known when it is listed, or when a listed
 * word shares its stem — found among the listed words that begin with the stem (Snowball
 * cuts endings), stemmed on demand, so loading costs a sort and no stemming.
 */
export function spellingDictionary(lists: readonly WordList[]): SpellingDictionary {
  const languages = lists.map(({ language, dic }) => ({ language, words: [...new Set(listedWords(dic))].sort() }));
  const listed = (words: readonly string[], word: string) => words[lowerBound(words, word)] === word;
  const sharesStem = (language: StemLanguage, words: readonly string[], stem: string) => {
    for (let i = lowerBound(words, stem), seen = 0; i < words.length && seen < MAX_STEM_SIBLINGS && words[i]!.startsWith(stem); i++, seen++) {
      if (stemOf(words[i]!, language) === stem) return true;
    }
    return false;
  };
  return {
    knows(word) {
      const normal = normalise(word);
      for (const { language, words } of languages) {
        if (listed(words, normal)) return true;
        const stem = stemOf(normal, language);
        if (stem !== null && sharesStem(language, words, stem)) return true;
      }
      return false;
    },
  };
}

/** Knows no word: every word not in the owner's vocabulary may be corrected. */
export const NO_DICTIONARY: SpellingDictionary = { knows: () => false };
