import { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '@memory-bank/db';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { ulid } from 'ulid';
import type { Logger } from 'pino';
import { routeNotFound } from './auth/operator';
import type { Config } from './config';
import { AppError } from './errors';
import type { ApiApp, AppEnv } from './http/env';
import { onError, problemResponse, requestDeadline } from './http/errors';
import { BEARER_SCHEME } from './http/route';
import { MCP_PATH, registerMcpRoute, type McpBridge } from './mcp/route';
import { validationHook } from './http/validation';
import { registerApiKeyRoutes } from './routes/api-keys';
import { registerMemoryRoutes } from './routes/memory';
import { OPERATOR_SCHEME, registerPostAdminOrg } from './routes/operator/create-org';
import { registerOrgRoutes } from './routes/org';
import { registerDocsRoutes } from './routes/system/docs';
import { registerHealthRoutes } from './routes/system/health';
import { systemClock, type Clock } from './services/deps';
import { createServices, type Services } from './services';

/** Largest request body /v1 accepts. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface AppDeps {
  db: Database;
  config: Config;
  logger: Logger;
  clock?: Clock;
}

export interface MemoryBankApp {
  app: ApiApp;
  services: Services;
  mcp: McpBridge;
}

export const SERVICE_INFO = { name: 'memory-bank', version: '0.1.0' };

/** Builds the whole HTTP application from explicit dependencies (server, tests, CLI). */
export function createApp(deps: AppDeps): MemoryBankApp {
  const { config, logger } = deps;
  const services = createServices({ db: deps.db, logger, clock: deps.clock ?? systemClock });
  const app: ApiApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use('*', requestId({ headerName: 'x-request-id', limitLength: 128, generator: () => ulid() }));
  app.use('*', async (c, next) => {
    c.set('services', services);
    c.set('config', config);
    c.set('logger', logger);
    const started = performance.now();
    await next();
    // Method, route pattern and status only: never headers, query strings or bodies.
    logger.info(
      {
        req_id: c.var.requestId,
        method: c.req.method,
        route: c.req.routePath,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });
  app.use('/v1/*', requestDeadline(config.REQUEST_TIMEOUT_MS));
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      // The rest of the body is never read: close the connection rather than leave
      // the client's unsent bytes to be parsed as its next request.
      throw new AppError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes`, {
        headers: { Connection: 'close' },
      });
    },
  });
  app.use('/v1/*', limitBody);
  app.use(MCP_PATH, limitBody);

  registerHealthRoutes(app);
  registerMemoryRoutes(app);
  registerApiKeyRoutes(app);
  registerOrgRoutes(app);
  registerPostAdminOrg(app);
  const mcp = registerMcpRoute(app, {
    toolTags: config.MCP_TOOL_TAGS,
    allowedOrigins: [...config.MCP_ALLOWED_ORIGINS, ...(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : [])],
    serverInfo: SERVICE_INFO,
  });

  app.openAPIRegistry.registerComponent('securitySchemes', BEARER_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`mbk_…`). The scopes an operation needs are listed in its security requirement.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', OPERATOR_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (MEMORY_BANK_OPERATOR_TOKEN).',
  });
  app.doc31('/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'Memory Bank API',
      version: SERVICE_INFO.version,
      description: 'Durable, owner-scoped memory for AI agents and web apps. Errors are RFC 9457 problem+json.',
    },
    servers: [{ url: config.PUBLIC_URL ?? new URL(c.req.url).origin }],
  }));
  registerDocsRoutes(app);

  app.notFound((c) => problemResponse(c, routeNotFound()));
  app.onError(onError);
  return { app, services, mcp };
}
