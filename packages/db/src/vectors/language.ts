import { analyseText, isAscii } from '../search/analyze';
import { evidentLanguage, languageEvidence, type StemLanguage } from '../search/language';

/** A text's language as the embedding models see it: one of the stemmed languages, or `other`. */
export type EmbeddingLanguage = StemLanguage | 'other';

/** Enough of a text to tell its language; a memory's first lines say it as well as the rest. */
const SAMPLE_CHARS = 4000;

/**
 * The language a memory or a query is written in, for choosing whether a model serves it:
 * the search's own detection (evidentLanguage, function words), except that a text whose
 * letters are mostly not Latin is `other` — the detection calls a text without any marker
 * word English (right for notes about code, wrong for Japanese or Russian) — and that an
 * ASCII text needs more than one marker word to be taken for another language.
 */
export function embeddableLanguage(text: string): EmbeddingLanguage {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  const latin = sample.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (letters > 0 && latin * 2 < letters) return 'other';
  const words = analyseText(sample);
  const language = evidentLanguage(words);
  // One function word is no evidence in plain ASCII: "how do I get a new monitor" is not
  // Portuguese for its "do", nor "log in de staging" Dutch. Letters only other languages use
  // (é, ü, ñ) or a second marker word are.
  if (language !== 'english' && isAscii(sample) && languageEvidence(words, language) < MIN_ASCII_EVIDENCE) return 'english';
  return language;
}

/** Marker words an ASCII text needs before it is taken for another language than English. */
const MIN_ASCII_EVIDENCE = 2;
