import { findMemory, listMemories, memoryContext, newId, searchMemories, type OwnerScope } from '@memory-bank/db';
import { findKeyHolder, insertMemoriesBulk } from '@memory-bank/db/system';
import { sql } from 'drizzle-orm';
import { hashApiKey } from '../../src/auth/api-key-secret';
import { QUERY_FILLER } from '../../../../packages/db/src/search/language';
import type { Services } from '../../src/services';
import { tenantMemories } from '../corpus';
import { sequential, type Measurement } from '../load';
import { provisionTenants, type Tenant } from '../seed';
import { ratio, type BenchContext, type Ratio, type ScenarioReport } from './context';
import type { Statement } from './statements';

/**
 * One owner grown step by step (with one or two contexts per memory) while another org of
 * the same database writes as many newer memories at each step: what a page, a read, a save
 * and searches cost at each size, through the API and as the same statements through
 * mysql2. The optimiser's statistics are taken once, at the first size, and then left
 * stale (STATS_AUTO_RECALC=0), as on a server whose tables grew since its last ANALYZE.
 */

const SIZES: Record<BenchContext['scale']['name'], number[]> = { smoke: [100, 400], small: [100, 2_000, 20_000], medium: [100, 2_000, 20_000], large: [100, 2_000, 20_000] };
const OWNER_INDEX = 3_000_000;
const OTHER_INDEX = 3_000_001;
const CHUNK = 1000;

/** Words of the owner's own texts by how many of its memories hold them (the corpus is lower-case words). */
function documentFrequencies(texts: readonly string[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const text of texts) for (const word of new Set(text.toLowerCase().match(/[a-z]+/g) ?? [])) df.set(word, (df.get(word) ?? 0) + 1);
  return df;
}

/**
 * Queries of three kinds from the owner's texts at the largest size, each word present
 * from the first size on: two rare words (in at most 0.05 % of the memories), one common
 * (in at least 10 %) and one rare, two common. Common words exclude what every query drops
 * (question filler such as "the", "was").
 */
function queriesOf(texts: readonly string[], first: number): Record<'rare' | 'mixed' | 'common', string[]> {
  const df = documentFrequencies(texts);
  const early = documentFrequencies(texts.slice(0, first));
  const present = [...early.keys()].filter((word) => !QUERY_FILLER.has(word) && word.length >= 3);
  const rare = present.filter((word) => df.get(word)! <= Math.max(2, texts.length * 0.0005)).sort();
  const common = present.filter((word) => df.get(word)! >= texts.length * 0.1).sort((a, b) => df.get(b)! - df.get(a)!);
  if (rare.length < 8 || common.length < 4) throw new Error(`owner-scaling: too few query words (rare ${rare.length}, common ${common.length})`);
  const pairs = (a: string[], b: string[], n: number) => Array.from({ length: n }, (_, i) => `${a[i % a.length]} ${b[(i * 3 + 1) % b.length]}`);
  return { rare: pairs(rare, rare.slice(4), 20), mixed: pairs(common, rare, 20), common: pairs(common, common.slice(1), 6) };
}

/** Memories `from`…`to` of a tenant, with one or two contexts each. */
async function grow(ctx: BenchContext, tenant: Tenant, texts: readonly string[], from: number, to: number): Promise<void> {
  const db = ctx.database.db;
  for (let offset = from; offset < to; offset += CHUNK) {
    const now = Date.now();
    const rows = texts.slice(offset, Math.min(to, offset + CHUNK)).map((content, i) => {
      const createdAt = new Date(now + i);
      return { id: newId('memory', createdAt), orgId: tenant.orgId, userId: tenant.userId, scope: 'user' as const, source: 'api' as const, content, tags: [], createdAt };
    });
    await insertMemoriesBulk(db, rows);
    const contexts = rows.flatMap((row, i) =>
      Array.from({ length: 1 + (i % 2) }, (_, c) => ({
        id: newId('memoryContext', row.createdAt),
        memoryId: row.id,
        orgId: tenant.orgId,
        snippet: `from the planning thread, part ${c + 1}`,
        citation: { url: `https://chat.example/c/${offset + i}`, title: 'Planning' },
        conversationId: `conv-${offset + i}`,
        messageId: null,
        origin: 'active_conversation' as const,
        createdAt: row.createdAt,
      })),
    );
    await db.insert(memoryContext).values(contexts);
    await ctx.database.pool.query(
      'UPDATE memory m JOIN (SELECT memory_id, COUNT(*) AS n FROM memory_context WHERE org_id = ? AND memory_id BETWEEN ? AND ? GROUP BY memory_id) c ON c.memory_id = m.id SET m.context_count = c.n WHERE m.org_id = ?',
      [tenant.orgId, rows[0]!.id, rows.at(-1)!.id, tenant.orgId],
    );
  }
}

/** What one read sends, captured from the very query helpers the API uses. */
async function captured(ctx: BenchContext, read: () => Promise<unknown>): Promise<Statement[]> {
  const statements: Statement[] = [];
  ctx.capture.capturing = statements;
  try {
    await read();
  } finally {
    ctx.capture.capturing = null;
  }
  return statements;
}

export async function ownerScaling(ctx: BenchContext, services: Services): Promise<ScenarioReport> {
  const sizes = SIZES[ctx.scale.name];
  const largest = sizes.at(-1)!;
  const [owner, other] = await provisionTenants(services, [OWNER_INDEX, OTHER_INDEX]);
  const texts = tenantMemories(OWNER_INDEX, largest);
  const otherTexts = tenantMemories(OTHER_INDEX, sizes.reduce((a, b) => a + b, 0));
  const queries = queriesOf(texts, sizes[0]!);
  const scope: OwnerScope = (await findKeyHolder(ctx.database.db, hashApiKey(owner!.key)))!.scope;
  const pool = ctx.database.pool;
  const headers = { authorization: `Bearer ${owner!.key}` };
  const count = ctx.scale.sequential;
  const measurements: Measurement[] = [];
  const p50s = new Map<string, number[]>();
  const record = (m: Measurement, kind: string) => {
    measurements.push(m);
    p50s.set(kind, [...(p50s.get(kind) ?? []), m.p50]);
  };
  const api = (path: string, init: RequestInit = {}) => async () => {
    const res = await fetch(`${ctx.service.url}${path}`, { ...init, headers: { ...headers, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
    await res.arrayBuffer();
    return res.ok;
  };
  const replay = (plans: Statement[][]) => async (i: number) => {
    for (const statement of plans[i % plans.length]!) JSON.stringify((await pool.query(statement.sql, statement.params))[0]);
    return true;
  };

  let held = 0;
  let otherHeld = 0;
  for (const [step, size] of sizes.entries()) {
    await grow(ctx, owner!, texts, held, size);
    held = size;
    // Another org writes as many newer memories: a page must not walk them.
    await grow(ctx, other!, otherTexts, otherHeld, otherHeld + size);
    otherHeld += size;
    if (step === 0) {
      await pool.query('ANALYZE TABLE memory, memory_context, memory_term_stats');
      for (const table of ['memory', 'memory_context', 'memory_term_stats']) await pool.query(`ALTER TABLE ${table} STATS_AUTO_RECALC = 0`);
    }
    const ids = ((await pool.query('SELECT id FROM memory WHERE org_id = ? AND user_id = ? ORDER BY id LIMIT 1000', [owner!.orgId, owner!.userId]))[0] as { id: string }[]).map((row) => row.id);
    const label = (what: string) => `${what} @ ${size.toLocaleString('en')}`;
    const warm = async (operation: () => Promise<boolean>) => {
      for (let i = 0; i < 20; i++) await operation();
    };

    const list = api('/v1/memory?limit=20');
    await warm(list);
    record(await sequential(label('list via API'), count, list), 'list');
    const listPlan = await captured(ctx, () => listMemories(ctx.database.db, scope, { limit: 20, filter: 'all' }));
    record(await sequential(label('list via mysql2'), count, replay([listPlan])), 'list raw');

    const get = (i: number) => api(`/v1/memory/${ids[(i * 37) % ids.length]}`)();
    record(await sequential(label('get via API'), count, get), 'get');
    // One capture at a time: the statements land in the one list being captured.
    const getPlans: Statement[][] = [];
    for (const id of ids.slice(0, 50)) getPlans.push(await captured(ctx, () => findMemory(ctx.database.db, scope, id)));
    record(await sequential(label('get via mysql2'), count, replay(getPlans)), 'get raw');

    for (const kind of ['rare', 'mixed', 'common'] as const) {
      const search = (i: number) => api(`/v1/memory/search?q=${encodeURIComponent(queries[kind][i % queries[kind].length]!)}&limit=20`)();
      await warm(() => search(0));
      record(await sequential(label(`search, ${kind} words, via API`), count, search), `search ${kind}`);
      const plans: Statement[][] = [];
      for (const q of queries[kind]) plans.push(await captured(ctx, () => searchMemories(ctx.database.db, scope, { query: q, limit: 20, filter: 'all' })));
      record(await sequential(label(`search, ${kind} words, via mysql2`), count, replay(plans)), `search ${kind} raw`);
    }

    const save = (i: number) =>
      api('/v1/memory', { method: 'POST', body: JSON.stringify({ content: `${texts[i % texts.length]} (saved at ${size})`, contexts: [{ snippet: 'from the bench' }] }) })();
    record(await sequential(label('save via API'), count, save), 'save');
  }
  for (const table of ['memory', 'memory_context', 'memory_term_stats']) await pool.query(`ALTER TABLE ${table} STATS_AUTO_RECALC = DEFAULT`);

  const ratios: Ratio[] = [];
  const growth = (kind: string) => {
    const values = p50s.get(kind)!;
    return values.at(-1)! / values[0]!;
  };
  const at = (n: number) => n.toLocaleString('en');
  ratios.push(ratio(`list p50 @${at(largest)} ÷ @${at(sizes[0]!)}`, growth('list'), '≤ 1.5', growth('list') <= 1.5));
  for (const kind of ['rare', 'mixed', 'common']) {
    ratios.push(ratio(`search (${kind} words) p50 @${at(largest)} ÷ @${at(sizes[0]!)}`, growth(`search ${kind}`), '≤ 3', growth(`search ${kind}`) <= 3));
  }
  for (const kind of ['get', 'save']) ratios.push(ratio(`${kind} p50 @${at(largest)} ÷ @${at(sizes[0]!)}`, growth(kind), '—', true));
  return {
    scenario: 'owner-scaling',
    measurements,
    ratios,
    notes: [
      `one owner at ${sizes.map(at).join(', ')} memories (one or two contexts each); at each step another org wrote as many newer memories; statistics taken at ${at(sizes[0]!)} and left stale (STATS_AUTO_RECALC=0) after that`,
      `queries: rare = two words each in at most 0.05 % of the owner's memories at ${at(largest)}, mixed = a word in at least 10 % and a rare one, common = two words in at least 10 % (e.g. "${queries.common[0]}"); ${count} sequential requests per figure`,
      'mysql2 side: the statements the API sends for the same read (captured from its query helpers), rows serialised to JSON',
    ],
  };
}
