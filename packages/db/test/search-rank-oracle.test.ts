import { describe, expect, it } from 'vitest';
import { memorySearchTerms } from '../src/search/memory-terms';
import { parseSearchQuery } from '../src/search/query';
import { rankCandidates, statsTermsOf } from '../src/search/rank';
import { OWNER_TOTALS, ownersStatsFrom, statsTermsFor, type OwnersStats } from '../src/search/stats';
import { searchTag } from '../src/search/terms';
import { referenceRank } from './support/rank-reference';
import { seeded } from './support/samples';

// rankCandidates against the plain reference scorer (support/rank-reference.ts) on seeded
// generated owners and queries: stems, identifier parts, prefixes, quoted and implicit
// phrases, accented and non-Latin words.

/** Words memories are made of: inflections (stems), identifiers (parts), accents, ideographs, filler. */
const VOCABULARY = [
  ...['deploy', 'deploys', 'deployed', 'deploying', 'deployment', 'invoice', 'invoices', 'invoicing', 'rotate', 'rotation', 'rotating'],
  ...['cache', 'caches', 'cached', 'retry', 'retries', 'retried', 'server', 'servers', 'test', 'tests', 'testing', 'order', 'orders'],
  ...['sync', 'synchronous', 'synchronise', 'key', 'keys', 'secret', 'secrets', 'error', 'errors', 'rate', 'alert', 'alerts', 'pipeline'],
  ...['OrderSync', 'createInvoice', 'HTTPServer', 'user_id', 'retryCount', 'cacheTTL', 'deployKey', 'v1.32.2', 'error-rate', 'Q3'],
  ...['café', 'cafe', 'résumé', 'resume', 'naïve', 'Straße', 'clés', 'façade', 'über', 'niño', 'Crème', '東京', 'タワー', 'Ωmega'],
  ...['the', 'a', 'of', 'and', 'we', 'is', 'la', 'des', 'die', 'der', 'what', 'how', 'to'],
];
const TAG = searchTag('u', 'usr_oracle');

interface Owner {
  rows: { id: string; content: string; searchTerms: string }[];
  /** The owner's statistics rows, term → [docs, tokens], as memory_term_stats holds them. */
  table: Map<string, [number, number]>;
}

function ownerOf(random: () => number, size: number): Owner {
  const pick = () => VOCABULARY[Math.floor(random() ** 1.6 * VOCABULARY.length)]!;
  const rows = Array.from({ length: size }, (_, i) => {
    const words = Array.from({ length: 1 + Math.floor(random() * 16) }, pick);
    // Some words repeated (term frequency), some capitalised.
    if (random() < 0.3) words.push(words[0]!, words[0]!);
    const content = words.map((word) => (random() < 0.15 ? word[0]!.toUpperCase() + word.slice(1) : word)).join(random() < 0.2 ? ', ' : ' ');
    return { id: `mem_${String(i).padStart(4, '0')}`, content, searchTerms: memorySearchTerms(TAG, content).searchTerms };
  });
  const table = new Map<string, [number, number]>([[OWNER_TOTALS, [0, 0]]]);
  for (const row of rows) {
    const terms = memorySearchTerms(TAG, row.content);
    table.get(OWNER_TOTALS)![0]++;
    table.get(OWNER_TOTALS)![1] += terms.length;
    for (const [term, occurrences] of terms.counts) {
      const [docs, tokens] = table.get(term) ?? [0, 0];
      table.set(term, [docs + 1, tokens + occurrences]);
    }
  }
  return { rows, table };
}

const fold = (term: string) => term.normalize('NFD').replace(/\p{M}/gu, '');

/** The statistics the search statement would read for `query`: the rows whose term the column's collation finds equal to one asked. */
function statsFor(owner: Owner, query: ReturnType<typeof parseSearchQuery>): OwnersStats {
  const asked = statsTermsFor(statsTermsOf(query));
  const wanted = new Set(asked.terms.map(fold));
  const rows = [...owner.table].filter(([term]) => term === OWNER_TOTALS || wanted.has(fold(term))).map(([term, [docs, tokens]]) => [term, docs, tokens]);
  return ownersStatsFrom(JSON.stringify(rows), asked);
}

/** A query about some of the owner's memories, as people type them. */
function queryFor(random: () => number, owner: Owner): string {
  const words = owner.rows[Math.floor(random() * owner.rows.length)]!.content.split(/[ ,]+/);
  const from = Math.floor(random() * words.length);
  const some = words.slice(from, from + 1 + Math.floor(random() * 4));
  const chunks = some.map((word) => {
    const roll = random();
    if (roll < 0.12 && word.length > 3) return `${word.slice(0, 2 + Math.floor(random() * (word.length - 2)))}*`; // a prefix
    if (roll < 0.22) return word.toUpperCase();
    if (roll < 0.3) return fold(word); // without its accents
    if (roll < 0.36) return VOCABULARY[Math.floor(random() * VOCABULARY.length)]!; // another word
    return word;
  });
  if (random() < 0.25 && chunks.length > 1) return `"${chunks.join(' ')}"${random() < 0.5 ? ` ${chunks[0]}` : ''}`; // quoted
  if (random() < 0.15 && chunks.length > 1) return chunks.join('-'); // written together
  if (random() < 0.2) chunks.unshift(random() < 0.5 ? 'what' : 'how do we');
  const typed = chunks.join(' ');
  // The last word typed halfway.
  return random() < 0.2 && typed.length > 4 ? typed.slice(0, typed.length - 1 - Math.floor(random() * 2)) : typed;
}

describe('rankCandidates against the reference scorer', () => {
  const random = seeded(20_240_611);
  const cases: { owner: Owner; candidates: Owner['rows']; q: string }[] = [];
  for (let o = 0; o < 40; o++) {
    const owner = ownerOf(random, 4 + Math.floor(random() * 40));
    for (let q = 0; q < 10; q++) {
      // Candidates: most of the owner's memories, some left out (the owner has more than the statement returns).
      cases.push({ owner, candidates: owner.rows.filter(() => random() < 0.85), q: queryFor(random, owner) });
    }
  }

  it('covers what the scorer distinguishes', () => {
    const queries = cases.map((c) => parseSearchQuery(c.q));
    expect(cases).toHaveLength(400);
    expect(queries.filter((q) => q.words.some((w) => w.prefix)).length).toBeGreaterThan(40);
    expect(queries.filter((q) => q.words.some((w) => w.parts.length > 0)).length).toBeGreaterThan(20);
    expect(queries.filter((q) => q.phrases.some((p) => p.quoted)).length).toBeGreaterThan(20);
    expect(queries.filter((q) => q.phrases.some((p) => !p.quoted)).length).toBeGreaterThan(20);
    expect(cases.filter((c) => /[^\x00-\x7f]/.test(c.q)).length).toBeGreaterThan(20);
  });

  it('ranks the same memories in the same order, with the same scores and matches', () => {
    let compared = 0;
    for (const { owner, candidates, q } of cases) {
      const query = parseSearchQuery(q);
      const stats = statsFor(owner, query);
      const optimised = rankCandidates(candidates, query, stats, candidates.length).map((r) => ({ id: r.row.id, score: r.score, terms: r.match.terms, phrases: r.match.phrases }));
      const reference = referenceRank(candidates, TAG, query, stats, candidates.length);
      expect(optimised.map((r) => r.id), q).toEqual(reference.map((r) => r.id));
      optimised.forEach((r, i) => {
        expect(Math.abs(r.score - reference[i]!.score), `${q}: ${r.id}`).toBeLessThanOrEqual(1e-9);
        expect({ terms: r.terms, phrases: r.phrases }, `${q}: ${r.id}`).toEqual({ terms: reference[i]!.terms, phrases: reference[i]!.phrases });
      });
      compared += optimised.length;
    }
    expect(compared).toBeGreaterThan(2000);
  });

  it('keeps the best `limit` of them', () => {
    for (const { owner, candidates, q } of cases.slice(0, 100)) {
      const query = parseSearchQuery(q);
      const stats = statsFor(owner, query);
      expect(rankCandidates(candidates, query, stats, 3).map((r) => r.row.id), q).toEqual(referenceRank(candidates, TAG, query, stats, 3).map((r) => r.id));
    }
  });
});
