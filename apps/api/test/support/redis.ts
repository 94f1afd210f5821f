/**
 * The Redis the tests use: TEST_REDIS_URL, default redis://127.0.0.1:6379 (a logical DB
 * may be chosen with a path, e.g. redis://127.0.0.1:6379/3). Runs may share it: every key a
 * test writes is unique to the run (bucket names carry fresh org and key ids; the bucket
 * store suite uses a prefix of its own) and a suite deletes only its own keys.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

const parsed = new URL(TEST_REDIS_URL);

/** Where the test Redis listens (for a TCP proxy in front of it). */
export const TEST_REDIS = { host: parsed.hostname, port: Number(parsed.port || 6379) };

/** The test Redis's URL (credentials and DB kept) reached at 127.0.0.1:`port` instead, e.g. through a proxy. */
export function testRedisUrlVia(port: number): string {
  const url = new URL(TEST_REDIS_URL);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}
