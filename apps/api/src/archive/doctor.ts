import { type Database } from '@memory-bank/db';
import {
  archiveBacklog,
  createFulltextIndex,
  deleteEmptiedStatistics,
  eventsWithUnknownSegment,
  existingOrgs,
  existingWorkstreams,
  ledgerFingerprints,
  lifecycleDue,
  maintenanceLeasesHeld,
  maintenanceRunsSince,
  migrationStatus,
  missingFulltextIndexes,
  queuedForDeletion,
  recordedSegmentKeys,
  recountOwnerStatistics,
  statisticsDrift,
  storedSegmentPage,
} from '@memory-bank/db/system';
import type { Logger } from 'pino';
import { sha256Hex } from '../hooks/canonical';
import type { Clock } from '../clock';
import { BACKFILL_JOB, type Embeddings } from '../embeddings';
import { RETENTION_LIMITS } from '../limits';
import type { ObjectStore } from './object-store';
import { groupArchiveKeys, rebuildLedger } from './rebuild';
import type { Archiver } from './sealer';
import { parseSegment } from './segment';

export interface Finding {
  check: 'migrations' | 'fulltext' | 'search_statistics' | 'archive_backlog' | 'segments' | 'orphans' | 'maintenance' | 'embeddings';
  ok: boolean;
  detail: string;
  repaired?: string;
}

export interface DoctorDeps {
  db: Database;
  store: ObjectStore;
  archiver: Archiver;
  clock: Clock;
  logger: Logger;
  migrate(): Promise<unknown>;
  /** The maintenance loop, for --repair to run its jobs now (services/maintenance.ts). */
  maintenance?: { run(): Promise<unknown> };
  /** The embedding subsystem: its provider, what has no current vector, the backfill (--repair runs it now). */
  embeddings?: Pick<Embeddings, 'status' | 'missing' | 'backfill'>;
}

/** Events waiting longer than this for their segment mean the archive is not keeping up. */
const BACKLOG_ALERT_MS = 60_000;

async function checkMigrations(deps: DoctorDeps, repair: boolean): Promise<Finding> {
  const { pending } = await migrationStatus(deps.db);
  if (pending.length === 0) return { check: 'migrations', ok: true, detail: 'all migrations applied' };
  if (!repair) return { check: 'migrations', ok: false, detail: `pending: ${pending.join(', ')}` };
  await deps.migrate();
  return { check: 'migrations', ok: true, detail: `were pending: ${pending.join(', ')}`, repaired: 'applied' };
}

async function checkFulltext(deps: DoctorDeps, repair: boolean): Promise<Finding> {
  const missing = await missingFulltextIndexes(deps.db);
  if (missing.length === 0) return { check: 'fulltext', ok: true, detail: 'all FULLTEXT indexes present' };
  const names = missing.map((index) => `${index.table}.${index.index}`).join(', ');
  if (!repair) return { check: 'fulltext', ok: false, detail: `missing: ${names} (was drizzle-kit push run?)` };
  for (const index of missing) await createFulltextIndex(deps.db, index);
  return { check: 'fulltext', ok: true, detail: `were missing: ${names}`, repaired: 'recreated' };
}

/** Each owner's statistics against its memories (statisticsDrift); repair recounts the owners that are off. */
async function checkStatistics(deps: DoctorDeps, repair: boolean): Promise<Finding> {
  const drift = await statisticsDrift(deps.db);
  if (drift.ownersDrifted === 0 && drift.emptiedRows === 0) return { check: 'search_statistics', ok: true, detail: "every owner's statistics count its memories" };
  const named = drift.owners.map((owner) => `${owner.orgId}/${owner.ownerId} counts ${owner.counted} of ${owner.held}`).join(', ');
  const detail =
    (drift.ownersDrifted > 0 ? `${drift.ownersDrifted} owners' statistics are off (${named}${drift.ownersDrifted > drift.owners.length ? ', …' : ''})` : '') +
    (drift.emptiedRows > 0 ? `${drift.ownersDrifted > 0 ? '; ' : ''}${drift.emptiedRows} rows of terms no memory holds` : '');
  if (!repair) return { check: 'search_statistics', ok: false, detail: `${detail}; \`pnpm cli stats rebuild\` or --repair recounts them` };
  await deleteEmptiedStatistics(deps.db);
  let rows = 0;
  for (const { orgId, ownerId } of (await statisticsDrift(deps.db, Number.MAX_SAFE_INTEGER)).owners) rows += (await recountOwnerStatistics(deps.db, { orgId, ownerId })).changed;
  return { check: 'search_statistics', ok: true, detail, repaired: `recounted ${drift.ownersDrifted} owners (${rows} rows changed), removed ${drift.emptiedRows} emptied rows` };
}

async function checkBacklog(deps: DoctorDeps, repair: boolean): Promise<Finding> {
  const describe = async () => {
    const backlog = await archiveBacklog(deps.db);
    const age = backlog.oldestPending ? deps.clock.now().getTime() - backlog.oldestPending.getTime() : 0;
    const ok = age <= BACKLOG_ALERT_MS && backlog.failingSegments === 0 && backlog.failingDeletions === 0;
    const detail =
      `${backlog.pendingEvents} events pending archive` +
      (backlog.oldestPending ? ` (oldest ${Math.round(age / 1000)} s old)` : '') +
      `; ${backlog.unstoredSegments} segments not stored yet (${backlog.failingSegments} failing)` +
      `; ${backlog.pendingDeletions} object deletions queued (${backlog.failingDeletions} failing)`;
    return { ok, detail };
  };
  const before = await describe();
  if (before.ok || !repair) return { check: 'archive_backlog', ...before };
  await deps.archiver.runOnce(true);
  const after = await describe();
  return { check: 'archive_backlog', ...after, repaired: `sealed and retried now (before: ${before.detail})` };
}

/** Every stored segment: object present, bytes as recorded, lines intact and equal to the ledger. */
async function checkSegments(deps: DoctorDeps, repair: boolean): Promise<Finding> {
  const problems: string[] = [];
  const rebuildable = new Set<string>();
  let checked = 0;
  for (let afterKey = ''; ; ) {
    const page = await storedSegmentPage(deps.db, { afterKey, limit: 200 });
    if (page.length === 0) break;
    afterKey = page.at(-1)!.key;
    for (const segment of page) {
      checked += 1;
      const body = await deps.store.get(segment.key);
      if (!body) {
        problems.push(`${segment.key}: object missing`);
        continue;
      }
      if (segment.sha256 && sha256Hex(body) !== segment.sha256) problems.push(`${segment.key}: bytes differ from what was stored`);
      try {
        const lines = parseSegment(body, segment.key);
        const ledger = await ledgerFingerprints(deps.db, segment.workstreamId, { first: segment.firstSequence, last: segment.lastSequence });
        for (let sequence = segment.firstSequence; sequence <= segment.lastSequence; sequence++) {
          const line = lines.find((candidate) => candidate.sequence === sequence);
          const row = ledger.get(sequence);
          if (!line) problems.push(`${segment.key}: no line for sequence ${sequence}`);
          else if (!row) {
            problems.push(`${segment.key}: ledger row ${sequence} missing`);
            rebuildable.add(segment.workstreamId);
          } else if (row.eventId !== line.event_id || row.payloadSha256 !== line.sha256) {
            problems.push(`${segment.key}: sequence ${sequence} differs from the ledger`);
          }
        }
        if (lines.length !== segment.lastSequence - segment.firstSequence + 1) problems.push(`${segment.key}: ${lines.length} lines for its range`);
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
      }
    }
  }
  const dangling = await eventsWithUnknownSegment(deps.db);
  if (dangling > 0) problems.push(`${dangling} ledger events name a segment the ledger does not record`);
  if (problems.length === 0) return { check: 'segments', ok: true, detail: `${checked} stored segments match the ledger` };
  const detail = `${problems.length} problems in ${checked} segments: ${problems.slice(0, 20).join('; ')}${problems.length > 20 ? '; …' : ''}`;
  if (!repair || rebuildable.size === 0) return { check: 'segments', ok: false, detail };
  for (const workstreamId of rebuildable) await rebuildLedger(deps, { workstreamId });
  const after = await checkSegments(deps, false);
  return { ...after, repaired: `rebuilt ${rebuildable.size} workstreams from the archive (before: ${detail})` };
}

/**
 * Objects the ledger does not know. Under a deleted org or workstream they are leftovers
 * and --repair deletes them; under a live workstream they are segments the ledger lost
 * and --repair rebuilds them into it.
 */
async function checkOrphans(deps: DoctorDeps, repair: boolean): Promise<Finding> {
  const keys = await deps.store.list('orgs/');
  // Objects the ledger let go of (deleted workstreams, retention) wait in the deletion queue: not orphans.
  const queued = await queuedForDeletion(deps.db, keys);
  const { workstreams, unknown } = groupArchiveKeys(keys.filter((key) => !queued.has(key)));
  const live = await existingWorkstreams(deps.db, workstreams.map((group) => group.workstreamId));
  const liveOrgs = await existingOrgs(deps.db, [...new Set(workstreams.map((group) => group.orgId))]);
  const leftovers: string[] = [...unknown];
  const unrecorded = new Set<string>();
  const ambiguous: string[] = [];
  for (const group of workstreams) {
    const groupKeys = [...group.segments.map((segment) => segment.key), ...(group.manifest ? [group.manifest] : [])];
    if (!live.has(group.workstreamId)) {
      if (liveOrgs.has(group.orgId)) ambiguous.push(...groupKeys);
      else leftovers.push(...groupKeys);
      continue;
    }
    const recorded = await recordedSegmentKeys(deps.db, group.segments.map((segment) => segment.key));
    if (group.segments.some((segment) => !recorded.has(segment.key))) unrecorded.add(group.workstreamId);
  }
  const problems = leftovers.length + unrecorded.size + ambiguous.length;
  const detail =
    `${keys.length} objects (${queued.size} queued for deletion); ${leftovers.length} left over from deleted orgs or unknown keys; ` +
    `${unrecorded.size} live workstreams with unrecorded segments; ${ambiguous.length} objects of deleted workstreams in live orgs` +
    (ambiguous.length > 0 ? ` (e.g. ${ambiguous[0]}: restore with \`pnpm cli ledger rebuild\` or delete)` : '');
  if (problems === 0) return { check: 'orphans', ok: true, detail };
  if (!repair) return { check: 'orphans', ok: false, detail };
  for (const key of leftovers) await deps.store.delete(key);
  for (const workstreamId of unrecorded) await rebuildLedger(deps, { workstreamId });
  return {
    check: 'orphans',
    ok: ambiguous.length === 0,
    detail,
    repaired: `deleted ${leftovers.length} leftover objects; rebuilt ${unrecorded.size} workstreams`,
  };
}

/** Work due for longer than this means no process is running the maintenance loop (it deletes within a minute). */
const OVERDUE_MS = 2 * 60_000;

const figure = (n: number) => n.toLocaleString('en-US');

/**
 * What expiry and retention removed lately (the runs recorded in maintenance_runs) and what
 * is due now, in counts. Unhealthy when something has been due for over OVERDUE_MS;
 * --repair runs the jobs at once.
 */
async function checkMaintenance(deps: DoctorDeps, repair: boolean): Promise<Finding> {
  const describe = async () => {
    const now = deps.clock.now();
    const runs = await maintenanceRunsSince(deps.db, new Date(now.getTime() - RETENTION_LIMITS.recentMs));
    const sum = (job: string, kind: string) => runs.filter((run) => run.job === job).reduce((n, run) => n + (run.counts[kind] ?? 0), 0);
    const due = await lifecycleDue(deps.db, now);
    const overdue = await lifecycleDue(deps.db, new Date(now.getTime() - OVERDUE_MS));
    const waiting = overdue.expiredMemories + overdue.retentionMemories + overdue.retentionSegments;
    const [lease] = await maintenanceLeasesHeld(deps.db);
    const detail =
      `last ${RETENTION_LIMITS.recentMs / 3_600_000} h: ${figure(sum('memory_expiry', 'memories'))} expired memories deleted; ` +
      `retention deleted ${figure(sum('memory_retention', 'memories'))} memories, ${figure(sum('workstream_retention', 'events'))} events ` +
      `(${figure(sum('workstream_retention', 'segments'))} segments, ${figure(sum('workstream_retention', 'workstreams'))} workstreams)` +
      (runs.length > 0 ? `, the last at ${runs.at(-1)!.finishedAt.toISOString()}` : '') +
      `; due now: ${figure(due.expiredMemories)} expired memories, ${figure(due.retentionMemories)} memories and ` +
      `${figure(due.retentionEvents)} events (${figure(due.retentionSegments)} segments) past retention` +
      `; lease: ${lease ? `held by ${lease.holder} until ${lease.leasedUntil.toISOString()}` : 'free'}` +
      (waiting > 0 ? `; ${figure(waiting)} due for over ${OVERDUE_MS / 60_000} minutes: is an API process running?` : '');
    return { ok: waiting === 0, detail };
  };
  const before = await describe();
  if (before.ok || !repair || !deps.maintenance) return { check: 'maintenance', ...before };
  await deps.maintenance.run();
  return { check: 'maintenance', ...(await describe()), repaired: `ran the maintenance jobs now (before: ${before.detail})` };
}

/** Memories without a current vector for this much longer than the sweep's interval mean no process embeds them. */
const EMBEDDING_OVERDUE_MS = 10 * 60_000;

/**
 * Which provider and model the vectors come from, how many memories have no current vector,
 * and where the backfill is. Unhealthy when some have had none for longer than two sweeps
 * and a margin while no process holds the backfill's lease; --repair runs the backfill here.
 */
async function checkEmbeddings(deps: DoctorDeps, repair: boolean): Promise<Finding> {
  const embeddings = deps.embeddings!;
  const describe = async () => {
    const status = embeddings.status();
    if (status.model === null) return { ok: true, detail: 'provider none: search is lexical only' };
    const missing = await embeddings.missing();
    const overdueAfterMs = 2 * status.sweepMs + EMBEDDING_OVERDUE_MS;
    const overdue = missing === 0 ? 0 : await embeddings.missing(new Date(deps.clock.now().getTime() - overdueAfterMs));
    const lease = (await maintenanceLeasesHeld(deps.db)).find((held) => held.job === BACKFILL_JOB);
    const progress = status.backfill;
    const detail =
      `provider ${status.provider}, model ${status.model}; ${figure(missing)} memories without a current vector` +
      `; backfill lease: ${lease ? `held by ${lease.holder} until ${lease.leasedUntil.toISOString()}` : 'free'}` +
      (progress?.finishedAt ? `; this process's last backfill finished at ${progress.finishedAt} (${figure(progress.embedded)} embedded)` : '') +
      (status.providerFailure ? `; the provider failed lately: ${status.providerFailure}` : '') +
      (overdue > 0 && !lease ? `; ${figure(overdue)} without one for over ${Math.round(overdueAfterMs / 60_000)} minutes: is an API process running, and its provider reachable?` : '');
    return { ok: overdue === 0 || lease !== undefined, detail };
  };
  const before = await describe();
  if (before.ok || !repair || !embeddings.backfill) return { check: 'embeddings', ...before };
  await embeddings.backfill.tryRun();
  return { check: 'embeddings', ...(await describe()), repaired: `ran the embedding backfill now (before: ${before.detail})` };
}

/**
 * `pnpm cli doctor`: migrations, FULLTEXT indexes, search statistics, the archive backlog, segment
 * integrity against the ledger, orphans, and what expiry and retention removed and have due.
 * `repair` fixes what can be fixed.
 */
export async function runDoctor(deps: DoctorDeps, options: { repair: boolean }): Promise<{ ok: boolean; findings: Finding[] }> {
  const checks: [Finding['check'], (deps: DoctorDeps, repair: boolean) => Promise<Finding>][] = [
    ['migrations', checkMigrations],
    ['fulltext', checkFulltext],
    ['search_statistics', checkStatistics],
    ['archive_backlog', checkBacklog],
    ['segments', checkSegments],
    ['orphans', checkOrphans],
    ['maintenance', checkMaintenance],
  ];
  if (deps.embeddings) checks.push(['embeddings', checkEmbeddings]);
  const findings: Finding[] = [];
  // A check that cannot run (the object store down, say) is a finding, not the end of the
  // report: the backlog matters most exactly then.
  for (const [check, run] of checks) {
    try {
      findings.push(await run(deps, options.repair));
    } catch (error) {
      findings.push({ check, ok: false, detail: `could not be checked: ${(error instanceof Error ? error.message : String(error)).slice(0, 300)}` });
    }
  }
  return { ok: findings.every((finding) => finding.ok), findings };
}
