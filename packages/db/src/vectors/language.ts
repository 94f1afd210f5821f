import { analyseText } from '../search/analyze';
import { evidentLanguage, type StemLanguage } from '../search/language';

/** A text's language as the embedding models see it: one of the stemmed languages, or `other`. */
export type EmbeddingLanguage = StemLanguage | 'other';

/** Enough of a text to tell its language; a memory's first lines say it as well as the rest. */
const SAMPLE_CHARS = 4000;

/**
 * The language a memory or a query is written in, for choosing whether a model serves it:
 * the search's own detection (evidentLanguage, function words), except that a text whose
 * letters are mostly not Latin is `other` — the detection calls a text without any marker
 * word English (right for notes about code, wrong for Japanese or Russian).
 */
export function embeddableLanguage(text: string): EmbeddingLanguage {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  const latin = sample.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (letters > 0 && latin * 2 < letters) return 'other';
  return evidentLanguage(analyseText(sample));
}
