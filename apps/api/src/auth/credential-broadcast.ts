/** How the credential cache hears of, and tells, other processes (Redis pub/sub; see credential-cache-redis.ts). */
export interface CredentialBroadcast {
  publish(orgId: string): Promise<void>;
  /** Resolves once this process listens (or gave up trying). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** What a broadcast tells the cache of changes other processes made. */
export interface ForgetsCredentials {
  /** Forgets one org's entries, or all of them (null). */
  forget(orgId: string | null): void;
}
