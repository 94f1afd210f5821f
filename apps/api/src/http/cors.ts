import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from './env';

const ALLOW_METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'];
const ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-Match',
  'X-Request-Id',
  'Mcp-Protocol-Version',
  // MCP 2026-07-28 repeats the method and the tool/resource name in headers.
  'Mcp-Method',
  'Mcp-Name',
  'Mcp-Session-Id',
  'Last-Event-ID',
];
/** What a web app may read beyond the CORS-safelisted response headers. */
const EXPOSE_HEADERS = [
  'X-Request-Id',
  'WWW-Authenticate',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'Mcp-Session-Id',
  'ETag',
  'Idempotent-Replayed',
];
const MAX_AGE_SECONDS = 600;

/**
 * CORS for the web apps in CORS_ORIGINS (exact origins; `*` admits any origin), or null
 * when the list is empty (no CORS headers at all). Register it before the routes: it
 * answers preflights itself, so an OPTIONS request never reaches a route's auth.
 *
 * Never `Access-Control-Allow-Credentials`: callers authenticate with a bearer token in
 * the Authorization header, which a cross-origin fetch sends without credentials mode;
 * cookies are not used, so there is nothing for credentials mode to carry, and `*` stays safe.
 */
export function corsMiddleware(origins: readonly string[]): MiddlewareHandler<AppEnv> | null {
  if (origins.length === 0) return null;
  const allowed = new Set(origins.map((origin) => origin.replace(/\/$/, '')));
  return cors({
    origin: allowed.has('*') ? '*' : (origin) => (allowed.has(origin) ? origin : null),
    allowMethods: ALLOW_METHODS,
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: MAX_AGE_SECONDS,
    credentials: false,
  });
}
