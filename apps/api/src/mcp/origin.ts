import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors';
import type { AppEnv } from '../http/env';

/**
 * True when `origin` is in the allow-list. An entry without a port admits every port of
 * its scheme and host (`http://localhost` admits `http://localhost:6274`).
 */
export function isAllowedOrigin(origin: string, allowList: readonly string[]): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  return allowList.some((entry) => {
    const allowed = new URL(entry);
    if (allowed.protocol !== url.protocol || allowed.hostname !== url.hostname) return false;
    return allowed.port === '' || allowed.port === url.port;
  });
}

/**
 * Browsers send Origin; a page on another site that reaches this server (DNS
 * rebinding, a local service) must not drive it. Requests without Origin (non-browser
 * clients) pass.
 */
export function requireAllowedOrigin(allowList: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !isAllowedOrigin(origin, allowList)) {
      throw new AppError('forbidden', 'This Origin is not allowed to use the MCP endpoint (see MCP_ALLOWED_ORIGINS)');
    }
    await next();
  };
}
