/**
 * The words of a memory or a query, with where each one stands in the original text.
 *
 * A word is a run of letters, marks and digits, optionally joined by underscores, or a
 * single Han/Hiragana/Katakana character (those scripts are written without spaces).
 * Words are NFKC-normalised and lower-cased one by one, so offsets stay those of the
 * text as it was written. Identifiers are also split into parts at underscores, at
 * lower→upper case changes and at letter↔digit boundaries: `OrderSync` → order, sync;
 * `createInvoice` → create, invoice; `HTTPServer` → http, server; `v1` → v, 1.
 */

/** innodb_ft_max_token_size is 84 characters; the longest term tag is 10 (see memory-terms.ts). */
export const MAX_WORD_CHARS = 74;

export interface WordSpan {
  /** Normalised, lower-cased. */
  text: string;
  /** UTF-16 offsets in the original text ([start, end)). */
  start: number;
  end: number;
}

export interface AnalysedWord extends WordSpan {
  /** The identifier's parts when it has more than one, else empty. */
  parts: WordSpan[];
}

const IDEOGRAPH = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]`;
const WORD_CHAR = String.raw`(?:(?!${IDEOGRAPH})[\p{L}\p{M}\p{N}])`;
const WORD = new RegExp(`${IDEOGRAPH}|${WORD_CHAR}+(?:_+${WORD_CHAR}+)*`, 'gu');
export const IDEOGRAPHIC = new RegExp(`^${IDEOGRAPH}$`, 'u');
// Where an identifier splits: before an upper-case letter that follows a lower-case one
// or that starts a word after an acronym, and between letters and digits.
const PART = /\p{Lu}+(?![\p{Ll}\p{M}])|\p{Lu}?[\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{M}]+|\p{Lu}|\p{N}+|[^\p{L}\p{N}_]+/gu;
const NOT_WORD = /[^\p{L}\p{M}\p{N}_]/gu;
const PLAIN_LOWER = /^[a-z]+$/;
// A run that might split into parts: an underscore, a digit, or an upper-case letter after the first character.
const MAY_SPLIT = /_|\p{N}|.\p{Lu}/u;

/** Lower-cased NFKC, cut to MAX_WORD_CHARS code points, anything InnoDB would split on removed. */
export function normaliseWord(raw: string): string {
  if (PLAIN_LOWER.test(raw)) return raw.length <= MAX_WORD_CHARS ? raw : raw.slice(0, MAX_WORD_CHARS);
  const normal = raw.normalize('NFKC').toLowerCase().replace(NOT_WORD, '');
  if (normal.length <= MAX_WORD_CHARS) return normal;
  const chars = Array.from(normal);
  return chars.length <= MAX_WORD_CHARS ? normal : chars.slice(0, MAX_WORD_CHARS).join('');
}

function partsOf(run: string, offset: number): WordSpan[] {
  const parts: WordSpan[] = [];
  let base = 0;
  for (const piece of run.split('_')) {
    if (piece.length > 0) {
      for (const match of piece.matchAll(PART)) {
        const text = normaliseWord(match[0]);
        if (text.length > 0) parts.push({ text, start: offset + base + match.index, end: offset + base + match.index + match[0].length });
      }
    }
    base += piece.length + 1;
  }
  return parts;
}

/** The words of `text` in order, duplicates kept (term frequency feeds the ranking). */
export function analyseText(text: string): AnalysedWord[] {
  const words: AnalysedWord[] = [];
  for (const match of text.matchAll(WORD)) {
    const run = match[0];
    const word = normaliseWord(run);
    if (word.length === 0) continue;
    const parts = run.length > 1 && MAY_SPLIT.test(run) && !IDEOGRAPHIC.test(run) ? partsOf(run, match.index) : [];
    words.push({ text: word, start: match.index, end: match.index + run.length, parts: parts.length > 1 ? parts : [] });
  }
  return words;
}
