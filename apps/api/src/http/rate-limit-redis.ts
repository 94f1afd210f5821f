import { Redis, type Result } from 'ioredis';
import type { Logger } from 'pino';
import { throttledWarning } from '../logger';
import type { Bucket, BucketStore, TakeOutcome } from './buckets';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** TAKE_TOKENS: `numberOfKeys, ...bucket keys, ...(perSecond, burst) per bucket`. */
    memoryBankTakeTokens(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Result<unknown, Context>;
  }
}

/**
 * Takes one token from every bucket in KEYS, or from none when any holds less than one,
 * in one atomic step. The clock is Redis's own, so API processes whose clocks disagree
 * still agree on refills. Each bucket is a hash { tokens, at (µs) } that expires once it
 * would be full again, when it is indistinguishable from a missing one.
 * ARGV: perSecond and burst of each bucket, in KEYS order.
 * Reply: { 1 | 0, tokens left in each bucket } — levels as strings, because Lua numbers
 * become integers in a reply.
 */
const TAKE_TOKENS = `
-- Redis before 5 replicates whole scripts and so refuses writes after TIME unless told
-- to replicate effects (a no-op since; gone from some forks).
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local levels = {}
local admitted = 1
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[2 * i - 1])
  local burst = tonumber(ARGV[2 * i])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = burst
  if state[1] and state[2] then
    local elapsed = math.max(0, now - tonumber(state[2]))
    tokens = math.min(burst, tonumber(state[1]) + elapsed * rate / 1000000)
  end
  levels[i] = tokens
  if tokens < 1 then admitted = 0 end
end
local reply = { admitted }
for i, key in ipairs(KEYS) do
  if admitted == 1 then
    local rate = tonumber(ARGV[2 * i - 1])
    local burst = tonumber(ARGV[2 * i])
    levels[i] = levels[i] - 1
    redis.call('HSET', key, 'tokens', string.format('%.17g', levels[i]), 'at', string.format('%.17g', now))
    redis.call('PEXPIRE', key, math.ceil((burst - levels[i]) / rate * 1000) + 1000)
  end
  reply[i + 1] = string.format('%.17g', levels[i])
end
return reply
`;

/** How long a request may wait for Redis before it is admitted unchecked. */
const TIMEOUT_MS = 500;
/** After a timeout, requests skip Redis this long, so a stalled Redis costs one wait, not one per request. */
const PAUSE_AFTER_TIMEOUT_MS = 2_000;
/** At most one warning per this period while Redis is away. */
const WARN_EVERY_MS = 30_000;

export interface RedisBucketStoreOptions {
  /** Namespace of the bucket keys (tests isolate themselves with their own). */
  prefix?: string;
  /** How long a request may wait for Redis (default TIMEOUT_MS); tests of the buckets themselves wait longer on a loaded machine. */
  timeoutMs?: number;
}

function parseReply(reply: unknown, count: number): TakeOutcome {
  if (!Array.isArray(reply) || reply.length !== count + 1) throw new Error('unexpected reply from the rate limit script');
  const tokens = reply.slice(1).map(Number);
  if (tokens.some((level) => !Number.isFinite(level))) throw new Error('unexpected bucket level from the rate limit script');
  return { admitted: reply[0] === 1, tokens };
}

/**
 * Bucket levels in Redis, shared by every API process that points at it.
 *
 * Fails open: while Redis is unreachable, slow (over TIMEOUT_MS) or erroring, take()
 * resolves null and the request is admitted without limits — a limiter outage must not
 * take the API down. A warning is logged at most every WARN_EVERY_MS, carrying the error
 * only (never the URL, which may hold a password, nor credentials). The client reconnects
 * by itself; after a timeout it also drops the connection, which may be half-open.
 */
export function createRedisBucketStore(url: string, logger: Logger, options: RedisBucketStoreOptions = {}): BucketStore {
  const prefix = options.prefix ?? 'memory-bank:rl:';
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const client = new Redis(url, {
    lazyConnect: true,
    // Commands fail at once while disconnected instead of queueing behind a dead link.
    enableOfflineQueue: false,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
  });
  client.defineCommand('memoryBankTakeTokens', { lua: TAKE_TOKENS });

  const warn = throttledWarning(logger, 'rate limits are not enforced: Redis (REDIS_URL) is unavailable; admitting requests', WARN_EVERY_MS);
  client.on('error', warn);

  // Connect now so the first requests find a ready client; until this settles (at most
  // connectTimeout) a request waits for it rather than skipping its limits.
  let connecting: Promise<void> | null = client
    .connect()
    .catch(warn)
    .finally(() => {
      connecting = null;
    });
  let pausedUntil = 0;

  const awaitConnecting = async () => {
    if (!connecting) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([connecting, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  };

  return {
    async take(buckets: readonly Bucket[]) {
      if (performance.now() < pausedUntil) return null;
      await awaitConnecting();
      if (client.status !== 'ready') return null;
      const args = buckets.flatMap((bucket) => [bucket.limit.perSecond, bucket.limit.burst]);
      try {
        const reply = await client.memoryBankTakeTokens(buckets.length, ...buckets.map((bucket) => prefix + bucket.name), ...args);
        return parseReply(reply, buckets.length);
      } catch (error) {
        warn(error);
        if (error instanceof Error && error.message === 'Command timed out') {
          pausedUntil = performance.now() + PAUSE_AFTER_TIMEOUT_MS;
          client.disconnect(true);
        }
        return null;
      }
    },
    async close() {
      connecting = null;
      if (client.status === 'ready') await client.quit().catch(() => {});
      // Also stops reconnect attempts when Redis was away.
      client.disconnect();
    },
  };
}
