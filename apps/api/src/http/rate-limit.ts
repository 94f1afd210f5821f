import type { Logger } from 'pino';
import type { Principal } from '../auth/principal';
import type { Config } from '../config';
import { AppError } from '../errors';
import { refilled, type Bucket, type BucketLimit, type BucketStore } from './buckets';
import { unlimited, type RequestLimiter } from './limits';

/**
 * The Redis store, its module (and ioredis) loaded in the background: deployments without
 * REDIS_URL never load it, and start-up does not wait for it.
 */
function redisBucketStore(url: string, logger: Logger): BucketStore {
  const loading = import('./rate-limit-redis').then(({ createRedisBucketStore }) => createRedisBucketStore(url, logger));
  return {
    take: async (buckets) => (await loading).take(buckets),
    close: async () => (await loading).close(),
  };
}

/** How often the in-process store forgets buckets that have refilled completely. */
const SWEEP_INTERVAL_MS = 10_000;

interface Level {
  tokens: number;
  at: number;
  /** When the bucket will be full again: from then on it equals a bucket never seen. */
  fullAt: number;
}

export interface MemoryBucketStore extends BucketStore {
  /** Buckets currently remembered. */
  readonly size: number;
}

/**
 * Bucket levels in a Map, refilled lazily when touched. A bucket that would be full again
 * is indistinguishable from a missing one, so a periodic sweep drops those: memory holds
 * only credentials and orgs active within one refill period (and buckets are only made
 * after authentication, so callers cannot invent them).
 */
export function createMemoryBucketStore(options: { now?: () => number } = {}): MemoryBucketStore {
  // Monotonic, so a wall-clock step neither refills nor drains buckets.
  const now = options.now ?? (() => performance.now());
  const levels = new Map<string, Level>();
  let sweptAt = now();

  const sweep = (at: number) => {
    if (at - sweptAt < SWEEP_INTERVAL_MS) return;
    sweptAt = at;
    for (const [name, level] of levels) if (level.fullAt <= at) levels.delete(name);
  };

  return {
    get size() {
      return levels.size;
    },
    async take(buckets) {
      const at = now();
      sweep(at);
      const tokens = buckets.map((bucket) => {
        const level = levels.get(bucket.name);
        return level ? refilled(level.tokens, at - level.at, bucket.limit) : bucket.limit.burst;
      });
      const admitted = tokens.every((level) => level >= 1);
      if (!admitted) return { admitted, tokens };
      const after = tokens.map((level) => level - 1);
      buckets.forEach((bucket, i) => {
        const left = after[i]!;
        levels.set(bucket.name, { tokens: left, at, fullAt: at + ((bucket.limit.burst - left) / bucket.limit.perSecond) * 1000 });
      });
      return { admitted, tokens: after };
    },
    async close() {
      levels.clear();
    },
  };
}

/** The RateLimit-Policy name of each bucket a request draws on. */
type PolicyName = 'key' | 'user' | 'org';

const SUBJECT: Record<PolicyName, string> = { key: 'this API key', user: 'this user', org: 'this organization' };

export interface BucketState {
  readonly policy: PolicyName;
  readonly limit: BucketLimit;
  readonly tokens: number;
}

const secondsToFull = (state: BucketState) => Math.ceil(Math.max(0, state.limit.burst - state.tokens) / state.limit.perSecond);
const untilNextToken = (state: BucketState) => (1 - state.tokens) / state.limit.perSecond;

/**
 * The bucket a client should pace itself by: the one with the fewest whole tokens left
 * (a refusing bucket has none); on a tie, the one slowest to refill, so `t` is never
 * optimistic. The draft lets RateLimit list every policy, but one item is what most
 * clients read, so we send the one that binds.
 */
function tightest(states: readonly BucketState[]): BucketState {
  return states.reduce((a, b) => {
    const byRemaining = Math.floor(a.tokens) - Math.floor(b.tokens);
    if (byRemaining !== 0) return byRemaining < 0 ? a : b;
    return secondsToFull(b) > secondsToFull(a) ? b : a;
  });
}

/**
 * RateLimit-Policy and RateLimit in the structured-field form of the IETF draft "RateLimit
 * header fields for HTTP": a bucket is a policy with quota q = burst over window w = seconds
 * to refill from empty; r = whole tokens left, t = seconds until the bucket is full again.
 */
export function rateLimitHeaders(states: readonly BucketState[], binding = tightest(states)): Record<string, string> {
  const policies = states.map((s) => `"${s.policy}";q=${s.limit.burst};w=${Math.ceil(s.limit.burst / s.limit.perSecond)}`);
  return {
    'RateLimit-Policy': policies.join(', '),
    RateLimit: `"${binding.policy}";r=${Math.max(0, Math.floor(binding.tokens))};t=${secondsToFull(binding)}`,
  };
}

type RateLimitConfig = Pick<
  Config,
  'RATE_LIMIT_KEY_PER_SECOND' | 'RATE_LIMIT_KEY_BURST' | 'RATE_LIMIT_ORG_PER_SECOND' | 'RATE_LIMIT_ORG_BURST' | 'REDIS_URL'
>;

/** A per-second rate of 0 turns that limit off. */
const limitOf = (perSecond: number, burst: number): BucketLimit | null => (perSecond > 0 ? { perSecond, burst } : null);

interface Policy {
  readonly policy: PolicyName;
  readonly bucket: Bucket;
}

/**
 * Per-credential and per-org token buckets (RATE_LIMIT_*), kept in this process, or in
 * Redis when REDIS_URL is set so every API process draws on the same buckets. A request
 * needs a token from both its credential's bucket (the API key; the user for OIDC
 * sign-ins) and its org's.
 */
export function createRequestLimiter(config: RateLimitConfig, logger: Logger, options: { store?: BucketStore } = {}): RequestLimiter {
  const credentialLimit = limitOf(config.RATE_LIMIT_KEY_PER_SECOND, config.RATE_LIMIT_KEY_BURST);
  const orgLimit = limitOf(config.RATE_LIMIT_ORG_PER_SECOND, config.RATE_LIMIT_ORG_BURST);
  if (!credentialLimit && !orgLimit) return unlimited;
  const store = options.store ?? (config.REDIS_URL ? redisBucketStore(config.REDIS_URL, logger) : createMemoryBucketStore());

  const policiesOf = (principal: Principal): Policy[] => {
    const policies: Policy[] = [];
    if (credentialLimit) {
      policies.push(
        principal.keyId !== null
          ? { policy: 'key', bucket: { name: `key:${principal.keyId}`, limit: credentialLimit } }
          : { policy: 'user', bucket: { name: `user:${principal.scope.userId}`, limit: credentialLimit } },
      );
    }
    if (orgLimit) policies.push({ policy: 'org', bucket: { name: `org:${principal.scope.orgId}`, limit: orgLimit } });
    return policies;
  };

  return {
    async admit(principal: Principal, setHeader) {
      const policies = policiesOf(principal);
      const outcome = await store.take(policies.map((p) => p.bucket));
      // Fail open: the store could not answer, and an outage of the limiter must not be
      // an outage of the API. No headers: we do not know the levels.
      if (!outcome) return;
      const states = policies.map((p, i): BucketState => ({ policy: p.policy, limit: p.bucket.limit, tokens: outcome.tokens[i] ?? 0 }));
      if (outcome.admitted) {
        // Prepared headers: Hono merges them into responses built with c.json/c.body,
        // including the problem response onError renders for errors thrown later in the
        // request — but not into a Response a handler makes itself (POST /mcp's).
        for (const [name, value] of Object.entries(rateLimitHeaders(states))) setHeader(name, value);
        return;
      }
      // When both buckets refuse, the one that frees up last is the one to report.
      const refusing = states.filter((s) => s.tokens < 1).reduce((a, b) => (untilNextToken(b) > untilNextToken(a) ? b : a));
      const retryAfter = Math.max(1, Math.ceil(untilNextToken(refusing)));
      for (const [name, value] of Object.entries(rateLimitHeaders(states, refusing))) setHeader(name, value);
      throw new AppError(
        'rate_limited',
        `Rate limit exceeded for ${SUBJECT[refusing.policy]} (${refusing.limit.perSecond} per second, burst ${refusing.limit.burst}); retry after ${retryAfter} s`,
        { retryAfterSeconds: retryAfter },
      );
    },
    close: () => store.close(),
  };
}
