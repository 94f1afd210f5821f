import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env';

/** True for a request the MCP bridge sends to the app in-process (never one from the network). */
export const inProcess = (c: Context<AppEnv>): boolean => c.env?.channel === 'mcp';

/**
 * Runs `middleware` for requests from the network only. An in-process request rides on the
 * /mcp request that carries it, which already went through it (deadline, body size, body
 * budget): a second pass would count the same bytes and time twice.
 */
export function overHttp(middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => (inProcess(c) ? next() : middleware(c, next));
}
