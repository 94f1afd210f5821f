import type { SegmentEvent } from '@memory-bank/db';
import { canonicalJson, sha256Hex } from '../hooks/canonical';

/** One line of a segment: the archived form of one ledger event. */
export interface Envelope {
  v: 1;
  event_id: string;
  workstream_id: string;
  sequence: number;
  harness: string;
  event: string;
  occurred_at: string;
  received_at: string;
  /** SHA-256 of the canonical sanitized payload. */
  sha256: string;
  payload: Record<string, unknown>;
}

export const SEGMENT_CONTENT_TYPE = 'application/x-ndjson';

/** The envelope line of one event, with the payload's canonical text embedded as stored. */
export function envelopeLine(event: SegmentEvent & { payload: string }): string {
  const head = JSON.stringify({
    v: 1,
    event_id: event.eventId,
    workstream_id: event.workstreamId,
    sequence: event.sequence,
    harness: event.harness,
    event: event.event,
    occurred_at: event.occurredAt.toISOString(),
    received_at: event.receivedAt.toISOString(),
    sha256: event.payloadSha256,
  });
  return `${head.slice(0, -1)},"payload":${event.payload}}\n`;
}

/** A segment's bytes: one envelope per line, in sequence order. Deterministic. */
export function buildSegment(events: (SegmentEvent & { payload: string })[]): { body: Uint8Array; sha256: string } {
  const body = Buffer.from(events.map(envelopeLine).join(''), 'utf8');
  return { body, sha256: sha256Hex(body) };
}

export class SegmentFormatError extends Error {
  override name = 'SegmentFormatError';
}

/** Parses a segment and checks each line's payload against its sha256. */
export function parseSegment(body: Uint8Array, key: string): Envelope[] {
  const text = Buffer.from(body).toString('utf8');
  const lines = text.split('\n').filter((line) => line.length > 0);
  return lines.map((line, index) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(line) as Envelope;
    } catch {
      throw new SegmentFormatError(`${key}: line ${index + 1} is not JSON`);
    }
    if (envelope.v !== 1 || typeof envelope.event_id !== 'string' || typeof envelope.sequence !== 'number' || !envelope.payload) {
      throw new SegmentFormatError(`${key}: line ${index + 1} is not a v1 envelope`);
    }
    if (sha256Hex(canonicalJson(envelope.payload)) !== envelope.sha256) {
      throw new SegmentFormatError(`${key}: line ${index + 1} (sequence ${envelope.sequence}) does not match its sha256`);
    }
    return envelope;
  });
}
