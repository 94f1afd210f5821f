import { HARNESSES, workstreamArchivePrefix, type Database, type EventMetadata, type Harness } from '@memory-bank/db';
import { ensureArchivedWorkstream, findWorkstreamForArchive, queuedForDeletion, writeRebuiltSegment, type ArchivedWorkstream, type RebuiltEvent } from '@memory-bank/db/system';
import type { Logger } from 'pino';
import { storedPayloadAdapter } from '../hooks/adapters';
import { canonicalJson, sha256Hex } from '../hooks/canonical';
import { ledgerFields } from '../hooks/ledger';
import type { ObjectStore } from './object-store';
import { parseSegment, type Envelope } from './segment';

/** Where an archive key sits: its org, workstream, and whether it is the manifest or a segment. */
export const ARCHIVE_KEY = /^orgs\/([^/]+)\/workstreams\/([^/]+)\/(?:(workstream\.json)|segments\/(\d{16})-(\d{16})\.jsonl)$/;

export interface ArchivedWorkstreamKeys {
  orgId: string;
  workstreamId: string;
  manifest: string | null;
  segments: { key: string; first: number; last: number }[];
}

/** Groups archive keys by workstream; keys of any other shape are returned apart. */
export function groupArchiveKeys(keys: string[]): { workstreams: ArchivedWorkstreamKeys[]; unknown: string[] } {
  const groups = new Map<string, ArchivedWorkstreamKeys>();
  const unknown: string[] = [];
  for (const key of keys) {
    const match = ARCHIVE_KEY.exec(key);
    if (!match) {
      unknown.push(key);
      continue;
    }
    const [, orgId = '', workstreamId = '', manifest, first, last] = match;
    const group = groups.get(workstreamId) ?? { orgId, workstreamId, manifest: null, segments: [] };
    if (manifest) group.manifest = key;
    else group.segments.push({ key, first: Number(first), last: Number(last) });
    groups.set(workstreamId, group);
  }
  for (const group of groups.values()) group.segments.sort((a, b) => a.first - b.first);
  return { workstreams: [...groups.values()], unknown };
}

export async function readManifest(store: ObjectStore, group: ArchivedWorkstreamKeys): Promise<ArchivedWorkstream> {
  if (!group.manifest) throw new Error(`workstream ${group.workstreamId} has segments but no workstream.json`);
  const body = await store.get(group.manifest);
  if (!body) throw new Error(`${group.manifest} disappeared`);
  const manifest = JSON.parse(Buffer.from(body).toString('utf8')) as Record<string, unknown>;
  if (manifest.id !== group.workstreamId || manifest.org_id !== group.orgId) {
    throw new Error(`${group.manifest} names another workstream or org than its key`);
  }
  if (typeof manifest.user_id !== 'string' || !HARNESSES.includes(manifest.harness as Harness) || typeof manifest.native_session_id !== 'string') {
    throw new Error(`${group.manifest} is not a v1 manifest`);
  }
  return {
    id: group.workstreamId,
    orgId: group.orgId,
    userId: manifest.user_id,
    harness: manifest.harness as Harness,
    nativeSessionId: manifest.native_session_id,
    createdAt: new Date(String(manifest.created_at)),
  };
}

/** What the sanitizer left in a payload, counted from its markers (the archive keeps no report). */
function markerReport(canonical: string): EventMetadata {
  const redactions: Record<string, number> = {};
  for (const [, kind] of canonical.matchAll(/\[REDACTED:([a-z0-9_]+)\]/g)) redactions[kind!] = (redactions[kind!] ?? 0) + 1;
  let truncations = 0;
  let truncatedBytes = 0;
  for (const [, bytes] of canonical.matchAll(/\[truncated (\d+) bytes\]/g)) {
    truncations += 1;
    truncatedBytes += Number(bytes);
  }
  return { redactions, truncations, truncated_bytes: truncatedBytes };
}

/** The ledger row an envelope stands for: the adapter run again on the archived payload. */
export function eventFromEnvelope(envelope: Envelope, harness: Harness): RebuiltEvent {
  const canonical = canonicalJson(envelope.payload);
  return {
    sequence: envelope.sequence,
    eventId: envelope.event_id,
    ...ledgerFields(storedPayloadAdapter(harness, envelope.payload)(envelope.payload)),
    occurredAt: new Date(envelope.occurred_at),
    receivedAt: new Date(envelope.received_at),
    metadata: markerReport(canonical),
    payloadSha256: envelope.sha256,
    payloadBytes: Buffer.byteLength(canonical),
  };
}

export interface RebuildReport {
  workstreams: number;
  segments: number;
  events: number;
  /** Workstreams not rebuilt, and why (owner deleted, damaged segment…). */
  skipped: { key: string; reason: string }[];
}

/**
 * Rebuilds `workstream_events` from the archive alone: every stored segment under the
 * chosen org or workstream is read, checked line by line against its sha256, and its
 * events are written back (existing rows are overwritten with what the archive says).
 */
export async function rebuildLedger(
  deps: { db: Database; store: ObjectStore; logger: Logger },
  scope: { orgId?: string; workstreamId?: string },
  /** Called after each segment with the report so far and the segments there are. */
  onProgress?: (report: RebuildReport, totalSegments: number) => void,
): Promise<RebuildReport> {
  const { db, store } = deps;
  let prefix = scope.orgId ? `orgs/${scope.orgId}/` : 'orgs/';
  if (scope.workstreamId) {
    const orgId = scope.orgId ?? (await findWorkstreamForArchive(db, scope.workstreamId))?.orgId;
    if (orgId) prefix = workstreamArchivePrefix(orgId, scope.workstreamId);
  }
  // What the ledger deleted (a deleted workstream, events past retention) waits in the
  // deletion queue: never rebuilt from, even while the store has not deleted it yet.
  const keys = await store.list(prefix);
  const queued = await queuedForDeletion(db, keys);
  const { workstreams } = groupArchiveKeys(keys.filter((key) => !queued.has(key)));
  const report: RebuildReport = { workstreams: 0, segments: 0, events: 0, skipped: [] };
  const chosen = workstreams.filter((group) => !scope.workstreamId || group.workstreamId === scope.workstreamId);
  const totalSegments = chosen.reduce((sum, group) => sum + group.segments.length, 0);
  for (const group of chosen) {
    try {
      const workstream = await readManifest(store, group);
      if (!(await ensureArchivedWorkstream(db, workstream))) {
        report.skipped.push({ key: group.manifest ?? group.workstreamId, reason: 'its org or user no longer exists' });
        continue;
      }
      report.workstreams += 1;
      for (const segment of group.segments) {
        try {
          const body = await store.get(segment.key);
          if (!body) continue;
          const envelopes = parseSegment(body, segment.key);
          const expected = Array.from({ length: segment.last - segment.first + 1 }, (_, i) => segment.first + i);
          if (envelopes.map((e) => e.sequence).join() !== expected.join() || envelopes.some((e) => e.workstream_id !== group.workstreamId)) {
            throw new Error('its lines do not match its key');
          }
          const events = envelopes.map((envelope) => eventFromEnvelope(envelope, workstream.harness));
          const stored = { key: segment.key, firstSequence: segment.first, lastSequence: segment.last, bytes: body.byteLength, sha256: sha256Hex(body), at: new Date() };
          await writeRebuiltSegment(db, workstream, stored, events);
          report.segments += 1;
          report.events += events.length;
        } catch (error) {
          report.skipped.push({ key: segment.key, reason: error instanceof Error ? error.message : String(error) });
        }
        onProgress?.(report, totalSegments);
      }
    } catch (error) {
      report.skipped.push({ key: group.manifest ?? group.workstreamId, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return report;
}
