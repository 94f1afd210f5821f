/** A token bucket: holds up to `burst` tokens and refills continuously at `perSecond`. */
export interface BucketLimit {
  readonly perSecond: number;
  readonly burst: number;
}

export interface Bucket {
  /** Unique across tenants, e.g. `key:key_…`, `user:usr_…`, `org:org_…`. */
  readonly name: string;
  readonly limit: BucketLimit;
}

export interface TakeOutcome {
  readonly admitted: boolean;
  /** Tokens left in each bucket (same order), after the charge when admitted. Fractional. */
  readonly tokens: readonly number[];
}

/** Where bucket levels live: this process (rate-limit.ts), or Redis shared by every API process (rate-limit-redis.ts). */
export interface BucketStore {
  /**
   * Takes one token from every bucket, or from none when any holds less than one — a
   * request refused by its org does not also cost its key. Resolves null when the store
   * cannot answer (the limiter then admits: see createRedisBucketStore).
   */
  take(buckets: readonly Bucket[]): Promise<TakeOutcome | null>;
  close(): Promise<void>;
}

/** The bucket level `elapsedMs` after it held `tokens`: continuous refill, capped at the burst. */
export function refilled(tokens: number, elapsedMs: number, limit: BucketLimit): number {
  return Math.min(limit.burst, tokens + (Math.max(0, elapsedMs) / 1000) * limit.perSecond);
}
