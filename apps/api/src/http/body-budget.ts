import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors';
import type { AppEnv } from './env';

/**
 * Bounds the request bodies the process works on at once. Each body is bounded by its
 * route's limit, but nothing else stops a few hundred concurrent 8 MiB batches from
 * exhausting the heap. A request is counted from before its body is read until its
 * answer, by its declared Content-Length (a chunked body by its route's limit). One that
 * would take the total over `maxBytes` gets 503 with Retry-After without its body being
 * read; a single request is always let in, whatever its size. Requests the MCP bridge
 * makes in-process are counted once, as the /mcp request that carries them.
 */
export function bodyBudget(maxBytes: number, limitFor: (path: string) => number): MiddlewareHandler<AppEnv> {
  let held = 0;
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.env?.channel === 'mcp') return next();
    const declared = c.req.header('content-length');
    const size = declared !== undefined && c.req.header('transfer-encoding') === undefined ? Number(declared) || 0 : limitFor(c.req.path);
    if (size === 0) return next();
    if (held > 0 && held + size > maxBytes) {
      throw new AppError('unavailable', 'The server is busy with other requests’ bodies; retry shortly', {
        // The body is never read: close the connection rather than parse it as a request.
        headers: { 'Retry-After': '1', Connection: 'close' },
      });
    }
    held += size;
    try {
      await next();
    } finally {
      held -= size;
    }
  };
}
