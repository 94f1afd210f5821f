import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { throttledWarning } from '../logger';
import type { CredentialBroadcast, ForgetsCredentials } from './credential-broadcast';

/** The channel every API process of a deployment listens on; a message is an org id. */
export const CREDENTIAL_CHANNEL = 'memory-bank:credentials';

/** How long a change waits for Redis before it is left to the window. */
const TIMEOUT_MS = 500;
/** At most one warning per this period while Redis is away. */
const WARN_EVERY_MS = 30_000;

/**
 * Credential changes through Redis pub/sub: a process that revokes a key publishes the org,
 * every process subscribed drops the org's cached credentials. Messages are not stored:
 * one missed while a subscriber was disconnected is covered by clearing its whole cache
 * when it reconnects, and at worst by the window (API_KEY_CACHE_MS).
 */
export function createRedisCredentialBroadcast(
  url: string,
  cache: ForgetsCredentials,
  logger: Logger,
  channel = CREDENTIAL_CHANNEL,
): CredentialBroadcast {
  const options = { connectTimeout: TIMEOUT_MS, maxRetriesPerRequest: 1 };
  const publisher = new Redis(url, { ...options, commandTimeout: TIMEOUT_MS });
  // ioredis subscribes again by itself after a reconnect.
  const subscriber = new Redis(url, options);
  const warn = throttledWarning(
    logger,
    'credential changes are not shared: Redis (REDIS_URL) is unavailable; other processes notice them within API_KEY_CACHE_MS',
    WARN_EVERY_MS,
  );
  publisher.on('error', warn);
  subscriber.on('error', warn);
  subscriber.on('message', (_channel: string, orgId: string) => cache.forget(orgId));
  // Whatever was published while this subscriber was away is unknown: forget everything.
  subscriber.on('ready', () => cache.forget(null));
  const subscribed = subscriber.subscribe(channel).then(() => undefined, warn);

  return {
    ready: () => subscribed,
    async publish(orgId) {
      await publisher.publish(channel, orgId);
    },
    async close() {
      for (const client of [publisher, subscriber]) {
        if (client.status === 'ready') await client.quit().catch(() => {});
        client.disconnect();
      }
    },
  };
}
