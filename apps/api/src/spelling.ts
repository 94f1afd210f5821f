import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { spellingDictionary, type SpellingDictionary, type StemLanguage } from '@memory-bank/db';

/**
 * The word lists typo correction leaves alone (packages/db search/spelling.ts): the
 * Hunspell dictionaries of English, French and German, read from their npm packages' files
 * (the packages' own entry points read them through import.meta.url, which a bundle
 * moves), once, on first use.
 */
const WORD_LISTS: { language: StemLanguage; pkg: string }[] = [
  { language: 'english', pkg: 'dictionary-en' },
  { language: 'french', pkg: 'dictionary-fr' },
  { language: 'german', pkg: 'dictionary-de' },
];

const resolvePackage = createRequire(import.meta.url);

let loading: Promise<SpellingDictionary> | undefined;

export function loadSpellingDictionary(): Promise<SpellingDictionary> {
  loading ??= Promise.all(
    WORD_LISTS.map(async ({ language, pkg }) => ({ language, dic: await readFile(join(dirname(resolvePackage.resolve(pkg)), 'index.dic'), 'utf8') })),
  ).then(spellingDictionary);
  return loading;
}
