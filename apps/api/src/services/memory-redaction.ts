import { countRedactionMarkers, type Sanitizer } from '../hooks/sanitize';
import type { MemoryRecord } from '@memory-bank/db';
import type { Principal } from '../auth/principal';

/** A value as it will be stored, and how many secrets in it became `[REDACTED:<kind>]`. */
export interface RedactedValue<T> {
  value: T;
  redacted: number;
}

export type MemoryRedaction = ReturnType<typeof createMemoryRedaction>;

/**
 * Memories get the redaction hook payloads get (same rules, same operator patterns), so
 * a key an agent pastes into "remember this" is not stored. An org may turn it off for
 * its memories (`redact_memory_secrets`).
 */
export function createMemoryRedaction(sanitizer: Sanitizer) {
  return {
    /** The org's setting comes with the caller's credential (Principal), so this costs no statement. */
    redact<T>(principal: Pick<Principal, 'redactsMemorySecrets'>, value: T): RedactedValue<T> {
      if (!principal.redactsMemorySecrets) return { value, redacted: 0 };
      const { value: kept, report } = sanitizer.sanitize(value);
      let redacted = 0;
      for (const count of Object.values(report.redactions)) redacted += count;
      return { value: kept, redacted };
    },
  };
}

/** The `[REDACTED:<kind>]` markers a stored memory carries (content, snippets, citations). */
export function redactionMarkersIn(memory: Pick<MemoryRecord, 'content' | 'contexts'>): number {
  return countRedactionMarkers([memory.content, ...memory.contexts.map((context) => `${context.snippet}${JSON.stringify(context.citation)}`)].join('\n'));
}
