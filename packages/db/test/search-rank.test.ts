import { describe, expect, it } from 'vitest';
import { memorySearchTerms } from '../src/search/memory-terms';
import { parseSearchQuery } from '../src/search/query';
import { highlightsOf, rankCandidates } from '../src/search/rank';
import type { OwnersStats } from '../src/search/stats';
import { searchTag } from '../src/search/terms';

const tag = searchTag('u', 'usr_rank');
const memories = (texts: Record<string, string>) => Object.entries(texts).map(([id, content]) => ({ id, content, searchTerms: memorySearchTerms(tag, content).searchTerms }));
/** Statistics of exactly these memories, as the stats table would hold them. */
function statsOf(rows: { content: string }[]): OwnersStats {
  const termDocs = new Map<string, number>();
  let tokens = 0;
  for (const row of rows) {
    const terms = memorySearchTerms(tag, row.content);
    tokens += terms.length;
    for (const term of terms.counts.keys()) termDocs.set(term, (termDocs.get(term) ?? 0) + 1);
  }
  return { docs: rows.length, tokens, termDocs };
}
const rank = (rows: ReturnType<typeof memories>, q: string) => {
  const query = parseSearchQuery(q);
  return rankCandidates(rows, query, statsOf(rows), 10);
};

describe('rankCandidates', () => {
  it('tells apart words of one length that share their first, middle and last letters', () => {
    // crate / crane / crave: what the term table hashes is the same; the words are not.
    const rows = memories({ crane: 'the crane lifted', crave: 'we crave cranes', crate: 'a crate of crates' });
    expect(rank(rows, 'crate').map((r) => [r.row.id, r.match.terms])).toEqual([['crate', ['crate']]]);
    expect(rank(rows, 'crane').map((r) => r.row.id)).toEqual(['crane', 'crave']);
  });

  it('weighs the word itself over its stem, a stem over an identifier part, a part over a prefix', () => {
    const rows = memories({
      exact: 'invoice totals',
      stem: 'invoices totals',
      part: 'createInvoice totals',
      none: 'unrelated totals',
    });
    const ranked = rank(rows, 'invoice');
    expect(ranked.map((r) => [r.row.id, r.matched.length])).toEqual([
      ['exact', 1],
      ['stem', 1],
      ['part', 1],
    ]);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
    expect(ranked[1]!.score).toBeGreaterThan(ranked[2]!.score);
    expect(ranked.every((r) => r.score > 0 && r.score <= 1)).toBe(true);
    // The last word is also a prefix: "synchronous" (stem synchron) only begins with "sync".
    const syncRows = memories({ prefix: 'synchronous totals', part: 'OrderSync totals' });
    expect(rank(syncRows, 'sync').map((r) => r.row.id)).toEqual(['part', 'prefix']);
  });

  it('puts a quoted phrase above the same words repeated apart', () => {
    const rows = memories({ together: 'the error rate alert', apart: 'error here, error there; the rate and the rate again' });
    expect(rank(rows, '"error rate"').map((r) => r.row.id)).toEqual(['together', 'apart']);
    expect(rank(rows, 'error rate')[0]!.row.id).toBe('apart');
  });

  it('breaks ties by words matched, then newest (largest id)', () => {
    const rows = memories({ mem_1: 'deploy notes', mem_2: 'deploy notes' });
    expect(rank(rows, 'deploy').map((r) => r.row.id)).toEqual(['mem_2', 'mem_1']);
  });

  it('gives a perfect single match a score of 1 and says what matched', () => {
    const rows = memories({ a: 'kafka', b: 'rabbitmq' });
    const [top] = rank(rows, 'kafka');
    expect(top).toMatchObject({ score: 1, match: { terms: ['kafka'], phrases: [] } });
  });

  it('compares accent-folded, as the collation does: words, prefixes and phrases of accented memories', () => {
    const rows = memories({ accented: 'Le résumé du café', plain: 'le resume du cafe', other: 'unrelated words' });
    expect(rank(rows, 'cafe').map((r) => r.row.id).sort()).toEqual(['accented', 'plain']);
    expect(rank(rows, 'resu').map((r) => r.row.id).sort()).toEqual(['accented', 'plain']);
    expect(rank(rows, '"résumé du café"').map((r) => [r.row.id, r.match.phrases.length])).toEqual([
      ['plain', 1],
      ['accented', 1],
    ]);
  });
});

describe('highlightsOf', () => {
  it('marks exact words, stems, parts and prefixes at their offsets in the content', () => {
    const content = 'Rotated the OrderSync secret; kubernetes next';
    const query = parseSearchQuery('rotate sync secret kube');
    const marks = highlightsOf(content, query.words).map((h) => [content.slice(h.start, h.end), h.kind]);
    expect(marks).toEqual([
      ['Rotated', 'stem'],
      ['Sync', 'part'],
      ['secret', 'exact'],
      ['kubernetes', 'prefix'],
    ]);
  });

  it('marks ASCII text as it marks the same words in text that is not ASCII', () => {
    // A trailing dash beyond ASCII (no word, no letter hint) sends the text down the
    // general path: offsets, kinds and language stay those of the ASCII words.
    const texts = [
      'Rotated the OrderSync secret; kubernetes next, rotating keys and ROTATION logs',
      'createInvoice failed on HTTPServer v1.32.2 with user_id null; invoices retried',
      'der Server und die Datenbank ist nicht bereit, wir werden rotieren und rotierten',
      'la rotation des cles est faite dans le cluster pour les serveurs rotatifs',
      'snake_case_name and CamelCaseName and XMLHttpRequest2 running runs runner',
      `${'deploy '.repeat(80)}end`,
    ];
    const queries = ['rotate sync secret kube', 'createinvoice http* invoice', 'rotieren server', 'serveurs rotation', 'snake case running', 'case* xmlhttp', 'deploy'];
    const kinds = new Map<string, number>();
    for (const text of texts) {
      for (const q of queries) {
        const words = parseSearchQuery(q).words;
        const ascii = highlightsOf(text, words);
        for (const mark of ascii) kinds.set(mark.kind, (kinds.get(mark.kind) ?? 0) + 1);
        expect(ascii, `${q} in ${text}`).toEqual(highlightsOf(`${text} —`, words));
      }
    }
    expect([...kinds.keys()].sort()).toEqual(['exact', 'part', 'prefix', 'stem']);
  });
});

