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
  parts: readonly WordSpan[];
}

const IDEOGRAPH = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]`;
const WORD_CHAR = String.raw`(?:(?!${IDEOGRAPH})[\p{L}\p{M}\p{N}])`;
/** A word: one ideograph, or letters, marks and digits joined by underscores (global: use it with matchAll, or reset lastIndex). */
export const WORD = new RegExp(`${IDEOGRAPH}|${WORD_CHAR}+(?:_+${WORD_CHAR}+)*`, 'gu');
export const IDEOGRAPHIC = new RegExp(`^${IDEOGRAPH}$`, 'u');
// Where an identifier splits: before an upper-case letter that follows a lower-case one
// or that starts a word after an acronym, and between letters and digits.
const PART = /\p{Lu}+(?![\p{Ll}\p{M}])|\p{Lu}?[\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{M}]+|\p{Lu}|\p{N}+|[^\p{L}\p{N}_]+/gu;
const NOT_WORD = /[^\p{L}\p{M}\p{N}_]/gu;
const PLAIN_LOWER = /^[a-z]+$/;
const ASCII_WORD = /^\w+$/;
// A run that might split into parts: an underscore, a digit, or an upper-case letter after the first character.
const MAY_SPLIT = /_|\p{N}|.\p{Lu}/u;

/** Below this length a loop over the characters beats the native call (a word; a whole text is longer). */
const NATIVE_ASCII_CHECK_CHARS = 24;

/**
 * True when every character of `text` is ASCII: for a text, its UTF-8 length is its length
 * (counted natively, an order of magnitude faster than a pattern over the text); for a
 * word, its character codes are looked at directly.
 */
export function isAscii(text: string): boolean {
  if (text.length >= NATIVE_ASCII_CHECK_CHARS) return Buffer.byteLength(text, 'utf8') === text.length;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** Lower-cased NFKC, cut to MAX_WORD_CHARS code points, anything InnoDB would split on removed. */
export function normaliseWord(raw: string): string {
  if (PLAIN_LOWER.test(raw)) return raw.length <= MAX_WORD_CHARS ? raw : raw.slice(0, MAX_WORD_CHARS);
  // ASCII letters, digits and underscores: NFKC leaves them as they are and none is removed.
  if (ASCII_WORD.test(raw)) {
    const lower = raw.toLowerCase();
    return lower.length <= MAX_WORD_CHARS ? lower : lower.slice(0, MAX_WORD_CHARS);
  }
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
  forEachWord(
    text,
    (start, end) => words.push(asciiWordAt(text, start, end)),
    (start, end) => addWord(words, text.slice(start, end), start),
  );
  return words;
}

/** Shared by every word that is not an identifier of several parts (nothing writes to it). */
const NO_PARTS: readonly WordSpan[] = Object.freeze([]);

function addWord(words: AnalysedWord[], run: string, start: number): void {
  const word = normaliseWord(run);
  if (word.length > 0) words.push(withParts(word, run, start, run.length > 1 && MAY_SPLIT.test(run) && !IDEOGRAPHIC.test(run)));
}

function withParts(text: string, run: string, start: number, maySplit: boolean): AnalysedWord {
  const parts = maySplit ? partsOf(run, start) : NO_PARTS;
  return { text, start, end: start + run.length, parts: parts.length > 1 ? parts : NO_PARTS };
}

/** The word analyseText finds at the ASCII run text[start, end) (one forEachAsciiWord visits). */
export function asciiWordAt(text: string, start: number, end: number): AnalysedWord {
  const run = text.slice(start, end);
  return withParts(normaliseWord(run), run, start, mayAsciiRunSplit(text, start, end));
}

/** MAY_SPLIT on the ASCII run text[start, end), by character codes: an underscore, a digit, or an upper-case letter after the first character. */
export function mayAsciiRunSplit(text: string, start: number, end: number): boolean {
  if (end - start < 2) return false;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 95 || (code >= 48 && code <= 57) || (i > start && code >= 65 && code <= 90)) return true;
  }
  return false;
}

/*
 * The WORD pattern on ASCII text, scanned by character codes instead of run as a Unicode
 * pattern (whose every match is an array to collect): there, a word character is a letter
 * or a digit, and a word is a run of them joined by underscores. Same words, same offsets
 * (analyze.test.ts compares the two).
 */
const isAsciiWordChar = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** Calls `visit` with the [start, end) of each word of ASCII `text` (or of its ASCII part [from, to)), in order (the WORD pattern's matches). */
export function forEachAsciiWord(text: string, visit: (start: number, end: number) => void, from = 0, to = text.length): void {
  let start = nextWordChar(text, from, to);
  while (start < to) {
    const end = asciiRunEnd(text, start, to);
    visit(start, end);
    start = nextWordChar(text, end, to);
  }
}

function nextWordChar(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && !isAsciiWordChar(text.charCodeAt(i))) i++;
  return i;
}

function asciiRunEnd(text: string, start: number, to: number): number {
  let end = start;
  for (;;) {
    while (end < to && isAsciiWordChar(text.charCodeAt(end))) end++;
    let next = end;
    while (next < to && text.charCodeAt(next) === 95) next++;
    if (next === end || next === to || !isAsciiWordChar(text.charCodeAt(next))) return end;
    end = next;
  }
}

/**
 * Calls `ascii` with the [start, end) of each word of `text` found by character codes (all
 * its characters are ASCII) and `other` with each one found by the WORD pattern, in order:
 * together, the WORD pattern's matches. ASCII text is scanned by character codes only. Other
 * text is cut where no word can be (at ASCII characters other than letters, digits and `_`:
 * WORD matches nothing across them), and only its pieces that hold other characters (a `—`,
 * a `✓`, an accented name) go through the pattern.
 */
export function forEachWord(text: string, ascii: (start: number, end: number) => void, other: (start: number, end: number) => void): void {
  if (isAscii(text)) {
    forEachAsciiWord(text, ascii);
    return;
  }
  let start = 0;
  let plain = true;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    if (code > 127) plain = false;
    else if (code !== 95 && !isAsciiWordChar(code)) {
      if (plain) forEachAsciiWord(text, ascii, start, i);
      else {
        const piece = text.slice(start, i);
        WORD.lastIndex = 0;
        for (let match = WORD.exec(piece); match !== null; match = WORD.exec(piece)) other(start + match.index, start + match.index + match[0].length);
      }
      start = i + 1;
      plain = true;
    }
  }
}

/** The words of any text by the Unicode pattern over the whole text: what analyseText must agree with (tests compare them). */
export function analyseTextByPattern(text: string): AnalysedWord[] {
  const words: AnalysedWord[] = [];
  for (const match of text.matchAll(WORD)) addWord(words, match[0], match.index);
  return words;
}
