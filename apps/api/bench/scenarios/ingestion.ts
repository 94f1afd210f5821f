import { readFileSync } from 'node:fs';
import * as hdr from 'hdr-histogram-js';
import type { ObjectStore } from '../../src/archive/object-store';
import { httpLoad, ROUNDS, type Measurement } from '../load';
import type { Tenant } from '../seed';
import { withPeakRss } from '../service';
import { ratio, type BenchContext, type Ratio, type ScenarioReport } from './context';

const FIXTURES = ['user-prompt-submit', 'pre-tool-use-bash', 'post-tool-use-bash', 'post-tool-use-edit', 'notification', 'stop'].map(
  (name) => JSON.parse(readFileSync(new URL(`../../test/fixtures/hooks/claude-code/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>,
);
const SESSIONS = 64;
export const BATCH = 256;
/** Sessions a batch holds: a client draining its spool sends the events of its own machine's sessions. */
const SESSIONS_PER_BATCH = 2;

/**
 * Realistic Claude Code payloads: the fixture shapes, spread over many sessions. Prompts and
 * tool ids are made unique; the notification and stop fixtures carry nothing per event and
 * repeat within a session, so each load sends an Idempotency-Key per event, as the
 * forwarders do (without one, an event's id is its payload's hash: a repeat is a retry).
 */
function hookPayload(run: string, i: number, session = i % SESSIONS): Record<string, unknown> {
  const base = FIXTURES[i % FIXTURES.length]!;
  return {
    ...base,
    session_id: `${run}-session-${session}`,
    ...(base.tool_use_id ? { tool_use_id: `toolu_${run}_${i}` } : {}),
    ...(base.prompt ? { prompt: `${String(base.prompt)} (event ${i})` } : {}),
  };
}

/** A single post's body and Idempotency-Key (`POST /v1/hooks/claude-code`). */
export function singlePost(run: string, i: number): { key: string; body: string } {
  return { key: `${run}-s-${i}`, body: JSON.stringify(hookPayload(`${run}s`, i)) };
}

/** One event of a `POST /v1/hooks/batch` body, with its idempotency key. */
export function batchEvent(run: string, i: number, session?: number): { harness: 'claude-code'; payload: Record<string, unknown>; idempotency_key: string } {
  return { harness: 'claude-code', payload: hookPayload(`${run}b`, i, session), idempotency_key: `${run}-b-${i}` };
}

/** How long a scenario waits for the archive to catch up before measuring regardless. */
export const ARCHIVE_WAIT_MS = 60_000;

/** Waits until the archive holds every event of `orgId` (of every org when null): false at the deadline. */
export async function waitForArchive(ctx: BenchContext, orgId: string | null, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [[row]] = (await ctx.database.pool.query(
      `SELECT (SELECT COALESCE(SUM(pending_count), 0) FROM workstreams WHERE ? IS NULL OR org_id = ?) AS pending,
              (SELECT COUNT(*) FROM archive_segments WHERE (? IS NULL OR org_id = ?) AND uploaded_at IS NULL) AS unstored`,
      [orgId, orgId, orgId, orgId],
    )) as unknown as [[{ pending: number; unstored: number }]];
    if (Number(row.pending) === 0 && Number(row.unstored) === 0) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Archive lag per event (202 → its segment stored), in ms. */
async function archiveLag(ctx: BenchContext, orgId: string): Promise<{ p50: number; p99: number; events: number }> {
  const [rows] = (await ctx.database.pool.query(
    `SELECT TIMESTAMPDIFF(MICROSECOND, e.received_at, s.uploaded_at) AS lag FROM workstream_events e
     JOIN archive_segments s ON s.object_key = e.segment_key WHERE e.org_id = ? AND s.uploaded_at IS NOT NULL`,
    [orgId],
  )) as unknown as [{ lag: number }[]];
  const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
  for (const row of rows) h.recordValue(Math.max(1, Number(row.lag)));
  return { p50: Math.round(h.getValueAtPercentile(50) / 1000), p99: Math.round(h.getValueAtPercentile(99) / 1000), events: rows.length };
}

/** Lines in every archived segment of the org (read back from object storage). */
async function archivedLines(store: ObjectStore, orgId: string): Promise<number> {
  let lines = 0;
  for (const key of await store.list(`orgs/${orgId}/`)) {
    if (!key.endsWith('.jsonl')) continue;
    const body = await store.get(key);
    if (body) lines += Buffer.from(body).toString('utf8').split('\n').filter(Boolean).length;
  }
  return lines;
}

/**
 * Scenario 3: hook ingestion at concurrency 32 — single posts, then batches of 256 — with
 * the S3 driver, then how long events waited to be archived, and whether any went missing.
 */
export async function ingestion(ctx: BenchContext, tenant: Tenant, store: ObjectStore): Promise<ScenarioReport> {
  const concurrency = ctx.scale.ingestConcurrency;
  const headers = { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' };
  const run = `bench${Date.now().toString(36)}`;
  let single = 0;
  let batch = 0;
  let batchNumber = 0;
  const accepted = { warmUp: 0, single: 0, batch: 0 };

  const singlePosts = (seconds: number) =>
    httpLoad({
      name: 'hook events, single posts',
      url: ctx.service.url,
      concurrency,
      seconds,
      ok: (status) => status === 202,
      requests: [
        {
          method: 'POST',
          path: '/v1/hooks/claude-code',
          setupRequest: (request) => {
            const post = singlePost(run, single++);
            return { ...request, headers: { ...headers, 'idempotency-key': post.key }, body: post.body };
          },
        },
      ],
    });
  // Warmed up (unrecorded) as every compared load is, then measured once the archive has
  // sealed the warm-up's events (a backlog would be charged to the measured posts).
  accepted.warmUp = (await singlePosts(ctx.scale.seconds / ROUNDS)).requests;
  await waitForArchive(ctx, tenant.orgId, ARCHIVE_WAIT_MS);

  const load = async () => {
    const singles = await singlePosts(ctx.scale.seconds);
    accepted.single = singles.requests;
    const batches = await httpLoad({
      name: `hook events, batches of ${BATCH}`,
      url: ctx.service.url,
      concurrency,
      seconds: ctx.scale.seconds,
      amount: concurrency * ctx.scale.batchRounds,
      ok: (status) => status === 200,
      requests: [
        {
          method: 'POST',
          path: '/v1/hooks/batch',
          headers,
          setupRequest: (request) => {
            // Consecutive batches come from different clients, each with sessions of its own.
            const client = batchNumber++ % concurrency;
            const events = Array.from({ length: BATCH }, () => {
              const i = batch++;
              const session = client * SESSIONS_PER_BATCH + (i % SESSIONS_PER_BATCH);
              return batchEvent(run, i, session);
            });
            return { ...request, body: JSON.stringify({ events }) };
          },
        },
      ],
    });
    accepted.batch = batches.requests * BATCH;
    return { singles, batches };
  };
  const { result, peak } = await withPeakRss(ctx.service.pid, load);
  ctx.peakRss['ingestion'] = Math.max(ctx.peakRss['ingestion'] ?? 0, peak);
  const batchEvents: Measurement = {
    ...result.batches,
    name: `${result.batches.name} (events)`,
    requests: accepted.batch,
    throughput: Math.round((accepted.batch / result.batches.seconds) * 10) / 10,
  };

  const sealed = await waitForArchive(ctx, tenant.orgId, 180_000);
  const [[{ ledger }]] = (await ctx.database.pool.query('SELECT COUNT(*) AS ledger FROM workstream_events WHERE org_id = ?', [tenant.orgId])) as unknown as [
    [{ ledger: number }],
  ];
  const lines = await archivedLines(store, tenant.orgId);
  const lag = await archiveLag(ctx, tenant.orgId);
  const acceptedEvents = accepted.warmUp + accepted.single + accepted.batch;
  // Requests still in flight when a load ends may be recorded without the client seeing
  // the 202, so the ledger can hold more than was acknowledged — never less — and every
  // ledger row must be in the archive.
  const lost = Math.max(0, acceptedEvents - Number(ledger)) + Math.max(0, Number(ledger) - lines);
  const ratios: Ratio[] = [
    ratio('single events accepted per second', result.singles.throughput, '≥ 1,500', result.singles.throughput >= 1500),
    ratio('batched events accepted per second', batchEvents.throughput, '≥ 10,000', batchEvents.throughput >= 10_000),
    ratio('archive lag p50 (ms, 202 → sealed)', lag.p50, '—', true),
    ratio('archive lag p99 (ms, 202 → sealed)', lag.p99, '≤ 10,000', lag.p99 <= 10_000),
    ratio('events lost (acknowledged but not in the ledger, or in the ledger but not archived)', lost, '0', lost === 0),
  ];
  return {
    scenario: 'ingestion',
    measurements: [result.singles, batchEvents],
    ratios,
    notes: [
      `${acceptedEvents} events accepted, ${ledger} ledger rows, ${lines} archived lines${sealed ? '' : ' (archive still catching up at the deadline)'}; single posts spread over ${SESSIONS} sessions, each batch holding ${SESSIONS_PER_BATCH} sessions of one of ${concurrency} clients; S3 driver against s3rver.`,
    ],
  };
}
