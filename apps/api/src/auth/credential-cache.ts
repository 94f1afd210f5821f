import type { Logger } from 'pino';
import { errorForLog } from '../logger';
import type { CredentialBroadcast, ForgetsCredentials } from './credential-broadcast';

/**
 * What changes a credential's meaning (a revoked key, a removed member, a changed role or
 * org setting) tells the credential cache: every process forgets the org's credentials.
 */
export interface CredentialChanges {
  /** Forgets the org's cached credentials here at once, and in every process sharing REDIS_URL. */
  changed(orgId: string): Promise<void>;
}


export interface CredentialCache<T> extends CredentialChanges {
  /** The cached value for `hash`, while younger than the window. */
  get(hash: string): T | undefined;
  /**
   * Remembers what a lookup started at `generation` found: dropped when a change came in
   * meanwhile, so a lookup racing a revocation never caches the old answer.
   */
  set(hash: string, value: T, generation: number): void;
  /** Taken before a lookup, handed back to set(). */
  readonly generation: number;
  /** Resolves once changes from other processes are heard (at once without a broadcast). */
  ready(): Promise<void>;
  forget: ForgetsCredentials['forget'];
  close(): Promise<void>;
}

/** At most this many credentials are remembered; a full cache starts over. */
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  orgId: string;
  expiresAt: number;
}

export interface CredentialCacheOptions<T> {
  /** How long a looked-up credential is trusted without asking the database (API_KEY_CACHE_MS; 0: never). */
  ttlMs: number;
  orgOf(value: T): string;
  /** Cross-process invalidation (REDIS_URL); without it other processes learn of a change within ttlMs. */
  broadcast?: (cache: ForgetsCredentials) => CredentialBroadcast;
  logger: Logger;
  /** Monotonic milliseconds (default performance.now). */
  now?: () => number;
}

/**
 * API-key lookups remembered for a short window (issue #14: the lookup was one round trip of
 * every request). Keyed by the key's hash; a change to an org's credentials drops all of the
 * org's entries in this process at once and, through the broadcast, in the others.
 */
export function createCredentialCache<T>(options: CredentialCacheOptions<T>): CredentialCache<T> {
  const now = options.now ?? (() => performance.now());
  const entries = new Map<string, Entry<T>>();
  let generation = 0;

  const forget = (orgId: string | null) => {
    generation++;
    if (orgId === null) return entries.clear();
    for (const [hash, entry] of entries) if (entry.orgId === orgId) entries.delete(hash);
  };
  const cache: CredentialCache<T> = {
    get generation() {
      return generation;
    },
    get(hash) {
      if (options.ttlMs === 0) return undefined;
      const entry = entries.get(hash);
      if (!entry) return undefined;
      if (entry.expiresAt > now()) return entry.value;
      entries.delete(hash);
      return undefined;
    },
    set(hash, value, at) {
      if (options.ttlMs === 0 || at !== generation) return;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(hash, { value, orgId: options.orgOf(value), expiresAt: now() + options.ttlMs });
    },
    forget,
    async changed(orgId) {
      forget(orgId);
      await broadcast?.publish(orgId).catch((error: unknown) =>
        options.logger.warn({ error: errorForLog(error) }, 'could not tell other processes of a credential change; they notice it within API_KEY_CACHE_MS'),
      );
    },
    async ready() {
      await broadcast?.ready();
    },
    async close() {
      await broadcast?.close();
    },
  };
  const broadcast = options.ttlMs > 0 ? options.broadcast?.(cache) : undefined;
  return cache;
}

/**
 * The Redis broadcast, its module (and ioredis) loaded in the background: deployments
 * without REDIS_URL never load it.
 */
export function redisCredentialBroadcast(url: string, logger: Logger): (cache: Pick<CredentialCache<unknown>, 'forget'>) => CredentialBroadcast {
  return (cache) => {
    const loading = import('./credential-cache-redis').then(({ createRedisCredentialBroadcast }) => createRedisCredentialBroadcast(url, cache, logger));
    return {
      publish: async (orgId) => (await loading).publish(orgId),
      ready: async () => (await loading).ready(),
      close: async () => (await loading).close(),
    };
  };
}
