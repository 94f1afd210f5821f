import { assertObjectKey } from './filesystem';

/** `a/b` → `a/b/`; empty stays empty. Throws on a prefix that could escape the bucket's keys. */
export function normalizePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  assertObjectKey(trimmed);
  return `${trimmed}/`;
}

/** An endpoint for logs: scheme, host and path, never user:password. */
export function safeEndpoint(endpoint: string): string {
  if (!URL.canParse(endpoint)) return 'custom endpoint';
  const url = new URL(endpoint);
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** How an S3 store describes itself (safe for logs). */
export function describeS3(bucket: string, prefix: string, endpoint: string | undefined, region: string): string {
  return `s3://${bucket}/${prefix} (${endpoint ? safeEndpoint(endpoint) : 'AWS'}, ${region})`;
}
