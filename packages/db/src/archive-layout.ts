import { archiveSegments, workstreamEvents, type Harness } from './schema';

/**
 * Where a tenant's archive lives and what its rows look like: object keys always sit under
 * the org's prefix. Shared by the sealer, the deleter and the raw download.
 */

export interface SegmentClaim {
  key: string;
  orgId: string;
  workstreamId: string;
  firstSequence: number;
  lastSequence: number;
}

/** The columns of archive_segments that make a SegmentClaim. */
export const claimColumns = {
  key: archiveSegments.key,
  orgId: archiveSegments.orgId,
  workstreamId: archiveSegments.workstreamId,
  firstSequence: archiveSegments.firstSequence,
  lastSequence: archiveSegments.lastSequence,
};

const pad = (sequence: number) => String(sequence).padStart(16, '0');

export function workstreamArchivePrefix(orgId: string, workstreamId: string): string {
  return `orgs/${orgId}/workstreams/${workstreamId}/`;
}

export function segmentKey(orgId: string, workstreamId: string, first: number, last: number): string {
  return `${workstreamArchivePrefix(orgId, workstreamId)}segments/${pad(first)}-${pad(last)}.jsonl`;
}

/** Who a workstream belongs to, written once beside its segments so the archive alone can rebuild the ledger. */
export function workstreamManifestKey(orgId: string, workstreamId: string): string {
  return `${workstreamArchivePrefix(orgId, workstreamId)}workstream.json`;
}

/** What a segment's lines are built from. */
export interface SegmentEvent {
  eventId: string;
  workstreamId: string;
  sequence: number;
  harness: Harness;
  event: string;
  occurredAt: Date;
  receivedAt: Date;
  payloadSha256: string;
  payload: string | null;
}

export const segmentEventColumns = {
  eventId: workstreamEvents.eventId,
  workstreamId: workstreamEvents.workstreamId,
  sequence: workstreamEvents.sequence,
  harness: workstreamEvents.harness,
  event: workstreamEvents.event,
  occurredAt: workstreamEvents.occurredAt,
  receivedAt: workstreamEvents.receivedAt,
  payloadSha256: workstreamEvents.payloadSha256,
  payload: workstreamEvents.payload,
};
