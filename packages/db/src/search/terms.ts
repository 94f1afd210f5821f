import { createHash } from 'node:crypto';
import { WORD, forEachWord, isAscii } from './analyze';

/**
 * Owner-prefixed search terms.
 *
 * InnoDB FULLTEXT keeps one posting list per token for the whole table, and a
 * `MATCH … AGAINST` filtered by owner afterwards reads every tenant's matches (see
 * docs/architecture.md#search). We therefore index, next to the content, a column of
 * the content's tokens each prefixed with its owner's search tag, and search that
 * column with the query's tokens prefixed the same way: the posting lists an owner's
 * query reads hold only that owner's rows. The prefix also lifts 1- and 2-letter
 * tokens ("Q3", "Go", "UI") over innodb_ft_min_token_size, and keeps stopwords out of
 * InnoDB's stopword list, so we choose ourselves when to ignore them.
 */

/** InnoDB's default FULLTEXT stopword list (INFORMATION_SCHEMA.INNODB_FT_DEFAULT_STOPWORD). */
export const INNODB_STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'about', 'an', 'are', 'as', 'at', 'be', 'by', 'com', 'de', 'en', 'for', 'from',
  'how', 'i', 'in', 'is', 'it', 'la', 'of', 'on', 'or', 'that', 'the', 'this', 'to',
  'was', 'what', 'when', 'where', 'who', 'will', 'with', 'und', 'www',
]);

/** A search tag: a kind letter and 8 hex digits of the owner id's SHA-256. */
export type SearchTag = string;
export type SearchTagKind = 'u' | 'o';

const TAG_LENGTH = 9;
/** innodb_ft_max_token_size is 84 characters; longer tokens are silently dropped. */
const MAX_TOKEN_CHARS = 84;
const MAX_WORD_CHARS = MAX_TOKEN_CHARS - TAG_LENGTH;
/** Query terms beyond this many are ignored (bounds the cost of a pasted paragraph). */
export const MAX_QUERY_TERMS = 32;

/**
 * The tag of an owner. Two owners may share a tag (32 bits); that only costs speed,
 * never correctness, because every query still filters by org and user.
 */
export function searchTag(kind: SearchTagKind, ownerId: string): SearchTag {
  return kind + createHash('sha256').update(ownerId).digest('hex').slice(0, TAG_LENGTH - 1);
}

function truncateWord(word: string): string {
  // Never more code points than UTF-16 units.
  if (word.length <= MAX_WORD_CHARS) return word;
  const chars = Array.from(word);
  return chars.length <= MAX_WORD_CHARS ? word : chars.slice(0, MAX_WORD_CHARS).join('');
}

/**
 * The words of a text, in order, lower-cased and NFKC-normalised. An underscore-joined
 * identifier yields itself and its parts (`user_id` → `user_id`, `user`, `id`), so a
 * search for either finds it. Duplicates are kept: term frequency feeds the ranking.
 */
export function tokenize(text: string): string[] {
  // ASCII needs no NFKC (its words are found by character codes: analyze.ts).
  const lower = isAscii(text) ? text.toLowerCase() : text.normalize('NFKC').toLowerCase();
  const words: string[] = [];
  const word = (start: number, end: number) => addToken(words, lower.slice(start, end));
  forEachWord(lower, word, word);
  return words;
}

/** tokenize by the Unicode pattern over the whole text: what tokenize must agree with (tests compare them). */
export function tokenizeByPattern(text: string): string[] {
  const words: string[] = [];
  for (const [run] of text.normalize('NFKC').toLowerCase().matchAll(WORD)) addToken(words, run);
  return words;
}

function addToken(words: string[], run: string): void {
  words.push(truncateWord(run));
  if (run.includes('_')) {
    for (const part of run.split(/_+/)) if (part) words.push(truncateWord(part));
  }
}

/** The value stored in a search_terms column for `text` owned by `tag`. */
export function indexTerms(tag: SearchTag, text: string): string {
  return tokenize(text)
    .map((word) => tag + word)
    .join(' ');
}

/**
 * The distinct words of a query worth searching for. Stopwords are dropped unless the
 * query has nothing else (then "the who" still finds "The Who").
 */
export function queryWords(query: string): string[] {
  const distinct = [...new Set(tokenize(query))];
  const meaningful = distinct.filter((word) => !INNODB_STOPWORDS.has(word));
  return (meaningful.length > 0 ? meaningful : distinct).slice(0, MAX_QUERY_TERMS);
}

/**
 * The AGAINST(…) string for `words` searched in the rows of each of `tags`. It holds
 * only word characters and spaces, so no user input reaches the FULLTEXT parser's
 * operators.
 */
export function againstTerms(tags: readonly SearchTag[], words: readonly string[]): string {
  return tags.flatMap((tag) => words.map((word) => tag + word)).join(' ');
}
