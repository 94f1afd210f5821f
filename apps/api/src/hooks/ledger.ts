import { sha256Hex } from './canonical';
import type { AdaptedEvent } from './types';

/** The ledger columns an adapted event determines — the same at ingestion and at rebuild. */
export function ledgerFields(adapted: AdaptedEvent) {
  return {
    kind: adapted.kind,
    role: adapted.role,
    event: adapted.eventName,
    lifecycleOnly: adapted.lifecycleOnly,
    toolUseId: adapted.toolUseId,
    toolName: adapted.toolName,
    outcome: adapted.outcome,
    content: adapted.content,
    contentSha256: sha256Hex(adapted.content),
  };
}
