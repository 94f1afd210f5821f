import { analyseText, IDEOGRAPHIC } from './analyze';
import { familyTag } from './memory-terms';
import { QUERY_FILLER, STEM_LANGUAGES, evidentLanguages, stemOf } from './language';
import type { SearchTag } from './terms';

/**
 * A search query as people and agents type it: words, "quoted phrases", `prefix*`, and a
 * last word that may be unfinished (type-ahead). Nothing else is an operator: `+`, `-`,
 * `(`, `~`, `@`, `<` … are punctuation, so no query can reach the FULLTEXT parser's syntax.
 */

/** Query words beyond this many are ignored (bounds the cost of a pasted paragraph). */
export const MAX_QUERY_WORDS = 32;
/** A prefix shorter than this matches too much to be worth reading (`a*`). */
export const MIN_PREFIX_CHARS = 2;
/** Shorter identifier parts of a query word are not searched on their own. */
const MIN_PART_CHARS = 2;

export interface QueryWord {
  /** Normalised word. */
  text: string;
  /** Its stems in the languages the query may be in. */
  stems: string[];
  /** Its identifier parts (`createinvoice` → create, invoice), else empty. */
  parts: string[];
  /** Also matched as the beginning of longer words. */
  prefix: boolean;
  /** The owners' words it is also searched as, when it is a typo of theirs (corrections.ts). */
  corrections?: readonly CorrectedWord[];
}

/** A correction of a query word: an owner's word and its stems. */
export interface CorrectedWord {
  text: string;
  stems: readonly string[];
}

export interface QueryPhrase {
  words: string[];
  /** Quoted by the user (ranked above any bag-of-words match); else words written together (`v1.32.2`, `東京タワー`). */
  quoted: boolean;
}

export interface SearchQuery {
  words: QueryWord[];
  phrases: QueryPhrase[];
}

const QUOTES = /["“”„«»]/u;
const HIRAGANA = /^\p{Script=Hiragana}$/u;

interface Chunk {
  text: string;
  quoted: boolean;
}

/** Splits the query into quoted phrases and the whitespace-separated chunks between them. */
function chunksOf(query: string): Chunk[] {
  const pieces = query.split(QUOTES);
  // An unclosed quote quotes nothing: its text is plain words.
  const closedQuotes = pieces.length % 2 === 1 ? pieces.length : pieces.length - 1;
  const chunks: Chunk[] = [];
  pieces.forEach((piece, i) => {
    const quoted = i % 2 === 1 && i < closedQuotes;
    if (quoted) chunks.push({ text: piece, quoted });
    else for (const text of piece.split(/\s+/u)) if (text.length > 0) chunks.push({ text, quoted });
  });
  return chunks;
}

interface Candidate {
  text: string;
  parts: string[];
  quoted: boolean;
  prefix: boolean;
  /** Index of the chunk it came from (words of one chunk form an implicit phrase). */
  chunk: number;
  filler: boolean;
}

export function parseSearchQuery(query: string): SearchQuery {
  const chunks = chunksOf(query);
  const candidates: Candidate[] = [];
  chunks.forEach((chunk, index) => {
    const words = analyseText(chunk.text);
    const starred = !chunk.quoted && chunk.text.endsWith('*');
    words.forEach((word, i) => {
      const last = i === words.length - 1;
      candidates.push({
        text: word.text,
        // One-letter or one-digit parts (`Q3` → q, 3) would match any "3rd" or "q".
        parts: word.parts.map((part) => part.text).filter((part) => Array.from(part).length >= MIN_PART_CHARS),
        quoted: chunk.quoted,
        prefix: last && (starred || (index === chunks.length - 1 && !chunk.quoted)),
        chunk: index,
        filler: false,
      });
    });
  });
  // Question filler goes unless it is all there is; in Japanese the kana particles and
  // endings (の, は, ですか) go when the query has kanji or katakana to search for.
  const hasIdeographs = candidates.some((c) => IDEOGRAPHIC.test(c.text) && !HIRAGANA.test(c.text));
  for (const c of candidates) c.filler = !c.quoted && (QUERY_FILLER.has(c.text) || (hasIdeographs && HIRAGANA.test(c.text)));
  const kept = candidates.every((c) => c.filler) ? candidates : candidates.filter((c) => !c.filler);

  const languages = [...new Set(['english' as const, ...evidentLanguages(candidates.map((c) => c.text)).filter((l) => STEM_LANGUAGES.includes(l))])];
  const words = new Map<string, QueryWord>();
  for (const c of kept) {
    if (!words.has(c.text) && words.size >= MAX_QUERY_WORDS) continue;
    const prefix = c.prefix && Array.from(c.text).length >= MIN_PREFIX_CHARS && !IDEOGRAPHIC.test(c.text);
    const known = words.get(c.text);
    if (known) {
      known.prefix ||= prefix;
      continue;
    }
    const stems = new Set<string>();
    for (const language of languages) {
      const stem = stemOf(c.text, language);
      if (stem !== null) stems.add(stem);
    }
    words.set(c.text, { text: c.text, stems: [...stems], parts: c.parts, prefix });
  }

  // Phrases: quoted ones as written; implicit ones are runs of kept words from one chunk.
  const phrases: QueryPhrase[] = [];
  const keptSet = new Set(kept);
  let run: Candidate[] = [];
  const flush = () => {
    if (run.length > 1) phrases.push({ words: run.map((c) => c.text), quoted: run[0]!.quoted });
    run = [];
  };
  for (const c of candidates) {
    if (!keptSet.has(c) || (run.length > 0 && run[0]!.chunk !== c.chunk)) flush();
    if (keptSet.has(c)) run.push(c);
  }
  flush();
  return { words: [...words.values()], phrases: phrases.slice(0, MAX_QUERY_WORDS) };
}

/**
 * The BOOLEAN MODE AGAINST(…) string for a parsed query over the rows of `owners`. Every
 * token is a tag followed by word characters, and the only operators in it are ours:
 * `>`/`<` (weight), `*` (prefix) and `"…"` (phrase). No token is required: any match is a
 * candidate, and the ranking decides. The words of `leaveOut` (common ones, see
 * selectivity.ts) and the phrases made of them only are not asked for.
 */
export function booleanAgainst(owners: readonly SearchTag[], query: SearchQuery, leaveOut: ReadonlySet<string> = new Set()): string {
  const tokens: string[] = [];
  for (const owner of owners) {
    const word = familyTag('w', owner);
    const stem = familyTag('s', owner);
    const part = familyTag('p', owner);
    for (const w of query.words) {
      if (leaveOut.has(w.text)) continue;
      tokens.push(`>${word}${w.text}`, `${part}${w.text}`);
      for (const s of w.stems) tokens.push(`${stem}${s}`);
      for (const p of w.parts) tokens.push(`${word}${p}`, `${part}${p}`);
      if (w.prefix) tokens.push(`<${word}${w.text}*`, `<${part}${w.text}*`);
      for (const c of w.corrections ?? []) {
        tokens.push(`${word}${c.text}`);
        for (const s of c.stems) tokens.push(`${stem}${s}`);
      }
    }
    for (const phrase of query.phrases) if (phrase.words.some((w) => !leaveOut.has(w))) tokens.push(`"${phrase.words.map((w) => word + w).join(' ')}"`);
  }
  return [...new Set(tokens)].join(' ');
}

/**
 * The search_terms tokens (memory-terms.ts) that show a row of `owner` holds one of
 * `words` (or of their corrections): their stems, which every form of a word holds, or the
 * word as written when it has none.
 */
export function termTokens(owner: SearchTag, words: readonly QueryWord[]): string[] {
  const tokensOf = (w: { text: string; stems: readonly string[] }) => (w.stems.length > 0 ? w.stems.map((stem) => familyTag('s', owner) + stem) : [familyTag('w', owner) + w.text]);
  return [...new Set(words.flatMap((w) => [...tokensOf(w), ...(w.corrections ?? []).flatMap(tokensOf)]))];
}

/** Whether a search_terms value (space-separated tokens) holds `token` whole. */
export function holdsToken(terms: string, token: string): boolean {
  for (let at = terms.indexOf(token); at >= 0; at = terms.indexOf(token, at + 1)) {
    const end = at + token.length;
    if ((at === 0 || terms.charCodeAt(at - 1) === 32) && (end === terms.length || terms.charCodeAt(end) === 32)) return true;
  }
  return false;
}
