import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env';

/**
 * What a route answered with `c.json` to an in-process request: the value itself, so the
 * MCP bridge serialises it once instead of reading back and parsing the route's JSON.
 */
export interface InProcessAnswer {
  /** Present (`'json' in answer`) once the route has answered with `c.json`. */
  json?: unknown;
}

/** True for a request the MCP bridge sends to the app in-process (never one from the network). */
export const inProcess = (c: Context<AppEnv>): boolean => c.env?.channel === 'mcp';

/**
 * Runs `middleware` for requests from the network only. An in-process request rides on the
 * /mcp request that carries it, which already went through it (deadline, body size, body
 * budget): a second pass would only cost time.
 */
export function overHttp(middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => (inProcess(c) ? next() : middleware(c, next));
}

/**
 * For an in-process request: its JSON body comes as the string the bridge built (never
 * through a web stream), and a `c.json` answer is handed back as the value (see
 * InProcessAnswer) with an empty body. Status and headers are the route's.
 */
export const inProcessExchange: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { jsonBody, answer } = c.env ?? {};
  // Hono keeps the body's promises there (its type says the values): the text, and the value
  // its JSON validator asks for, which Hono would otherwise parse through a web Response.
  if (jsonBody !== undefined) Object.assign(c.req.bodyCache, { text: Promise.resolve(jsonBody), json: Promise.resolve(JSON.parse(jsonBody)) });
  if (answer) {
    c.json = ((object: unknown, ...rest: Parameters<typeof c.body> extends [unknown, ...infer R] ? R : never) => {
      answer.json = object;
      return c.body(null, ...rest);
    }) as unknown as typeof c.json;
  }
  await next();
};
