/** How long the semantic leg stays off after the provider failed, before a search tries it again. */
export const PROVIDER_COOLDOWN_MS = 30_000;

/**
 * Whether the provider answered lately: after a failure (an error, or no answer within the
 * deadline) searches skip the semantic leg at once for a cooldown instead of each waiting
 * out the deadline, and saves leave their memories to the sweep.
 */
export interface ProviderHealth {
  available(): boolean;
  failed(error: unknown): void;
  succeeded(): void;
  /** The last failure's message (never a key or a text), while the cooldown lasts. */
  lastFailure(): string | null;
}

export function createProviderHealth(cooldownMs = PROVIDER_COOLDOWN_MS): ProviderHealth {
  let downUntil = 0;
  let failure: string | null = null;
  return {
    available: () => performance.now() >= downUntil,
    failed(error) {
      downUntil = performance.now() + cooldownMs;
      failure = error instanceof Error ? error.message : String(error);
    },
    succeeded() {
      downUntil = 0;
      failure = null;
    },
    lastFailure: () => (performance.now() >= downUntil ? null : failure),
  };
}
