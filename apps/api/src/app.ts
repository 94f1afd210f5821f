import { OpenAPIHono } from '@hono/zod-openapi';
import type { Tracer } from '@opentelemetry/api';
import type { Server } from 'node:http';
import type { Database } from '@memory-bank/db';
import { requestId } from 'hono/request-id';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { openObjectStore } from './archive';
import { sampleArchiveBacklog } from './archive/backlog';
import type { ObjectStore } from './archive/object-store';
import { createArchiver, type Archiver, type ArchiverOptions } from './archive/sealer';
import { routeNotFound } from './auth/operator';
import { metricsEnabled, oidcEnabled, type Config } from './config';
import { measureRequests, registerMetricsRoute, serveMetrics } from './observability/http';
import { createMetrics, type AppMetrics } from './observability/metrics';
import { registerEmbeddingMetrics } from './observability/embedding-metrics';
import { createEmbeddings, type Embeddings, type EmbeddingsDeps } from './embeddings';
import { traceRequests, tracedObjectStore } from './observability/tracing';
import { createOidcAuthenticator } from './auth/oidc';
import { bodyBudget, limitBodies } from './http/bodies';
import { corsMiddleware } from './http/cors';
import { inProcess, overHttp } from './http/in-process';
import { registerWellKnownRoutes } from './routes/system/well-known';
import { answeredStatus, type ApiApp, type AppEnv } from './http/env';
import { requestDeadlines } from './http/deadlines';
import { onError, problemResponse } from './http/errors';
import { createRequestLimiter } from './http/rate-limit';
import { BEARER_SCHEME } from './http/route';
import { MCP_PATH, registerMcpRoute, type McpBridge } from './mcp/route';
import { validationHook } from './http/validation';
import { createSanitizer } from './hooks/sanitize';
import { registerAdminRoutes } from './routes/admin';
import { registerApiKeyRoutes } from './routes/api-keys';
import { registerDeleteAdminOrgById } from './routes/operator/delete-org';
import { registerHookRoutes } from './routes/hooks';
import { postHooksBatchRoute } from './routes/hooks/batch';
import { BODY_LIMITS, HOOK_LIMITS, TRANSFER_LIMITS } from './limits';
import { postMemoryImportRoute } from './routes/memory/import';
import { registerMemoryRoutes } from './routes/memory';
import { registerRecallRoutes } from './routes/recall';
import { registerWorkstreamRoutes } from './routes/workstreams';
import { OPERATOR_SCHEME, registerPostAdminOrg } from './routes/operator/create-org';
import { registerOrgRoutes } from './routes/org';
import { registerConsoleRoutes } from './routes/system/console';
import { registerDocsRoutes } from './routes/system/docs';
import { registerHealthRoutes } from './routes/system/health';
import { systemClock, type Clock } from './clock';
import { createServices, type Services } from './services';
import { createKeyCache, type KeyCache } from './services/authentication';
import { createMaintenance, type Maintenance, type MaintenanceOptions } from './services/maintenance';
import { createOidcEnrolment } from './services/oidc-enrolment';
import type { CredentialChanges } from './auth/credential-cache';
import { createOAuthServer, type OAuthServer } from './oauth';
import { requireOAuthToken } from './oauth/bearer';
import { registerOAuthRoutes } from './oauth/routes';
import { INTERACTION_PATH, MCP_OAUTH_PATH } from './oauth/settings';
import { registerOAuthApiRoutes } from './routes/oauth';


export interface AppDeps {
  db: Database;
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** The hook archive; default: the store ARCHIVE_URL names. */
  store?: ObjectStore;
  archiverOptions?: Partial<ArchiverOptions>;
  /** The maintenance loop's interval, lease and per-job time (tests shorten them). */
  maintenanceOptions?: Partial<MaintenanceOptions>;
  /** Traces requests and object-store calls when given (main.ts: OTEL_EXPORTER_OTLP_ENDPOINT). */
  tracer?: Tracer;
  /** The embedding backfill's sweep interval and lease (tests shorten the lease). */
  backfillOptions?: EmbeddingsDeps['backfillOptions'];
}

export interface MemoryBankApp {
  app: ApiApp;
  services: Services;
  mcp: McpBridge;
  /** Seals segments and deletes objects in the background: start() it (the server does). */
  archiver: Archiver;
  store: ObjectStore;
  /** The app's Prometheus metrics, or null when METRICS_TOKEN and METRICS_PORT are both unset. */
  metrics: AppMetrics | null;
  /** Serves GET /metrics on a port of its own (METRICS_PORT); close() closes it. */
  serveMetrics(port: number, hostname?: string): Promise<Server>;
  /** API-key lookups remembered for API_KEY_CACHE_MS (ready(): hears other processes' changes). */
  keyCache: KeyCache;
  /** Background jobs (expiry, retention, expired Idempotency-Keys), one process at a time across replicas: start() it (the server does). */
  maintenance: Maintenance;
  /** Vectors of memories and the semantic candidates of search (EMBEDDINGS_PROVIDER): start() loads the model and starts the backfill (the server does). */
  embeddings: Embeddings;
  /** Writes the memory uses it holds, stops the archiver (sealing what is pending when `flush`) and releases the store it opened. */
  close(options: { flush: boolean }): Promise<void>;
}

export const SERVICE_INFO = { name: 'memory-bank', version: '0.1.0' };

/** Builds the whole HTTP application from explicit dependencies (server, tests, CLI). */
export function createApp(deps: AppDeps): MemoryBankApp {
  const { config, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const { tracer } = deps;
  const metrics = metricsEnabled(config) ? createMetrics(deps.db) : null;
  const opened = deps.store ? undefined : openObjectStore(config);
  const store = tracer ? tracedObjectStore(deps.store ?? opened!, tracer) : (deps.store ?? opened!);
  const archiver = createArchiver({
    db: deps.db,
    store,
    clock,
    logger,
    ...(deps.archiverOptions ? { options: deps.archiverOptions } : {}),
    ...(metrics ? { onStoreFailure: metrics.archiveFailure } : {}),
    ...(tracer ? { tracer } : {}),
  });
  metrics?.observeArchiveBacklog(() => sampleArchiveBacklog(deps.db, clock));
  const sanitizer = createSanitizer({ extraPatterns: config.HOOK_REDACT_PATTERNS });
  const oidc = oidcEnabled(config)
    ? createOidcAuthenticator({ db: deps.db, config, clock, logger, enrolment: createOidcEnrolment({ db: deps.db, clock, logger }) })
    : null;
  const keyCache = createKeyCache(config, logger);
  // A change to who a credential is tells the key cache (every process) and the OAuth token cache.
  let oauth: OAuthServer | undefined;
  const credentials: CredentialChanges = {
    changed: async (orgId) => {
      oauth?.tokenCache.forget(orgId);
      await keyCache.changed(orgId);
    },
  };
  const embeddings = createEmbeddings({
    db: deps.db,
    config,
    clock,
    logger,
    ...(metrics && { events: registerEmbeddingMetrics(metrics.registry, () => embeddings) }),
    ...(deps.backfillOptions && { backfillOptions: deps.backfillOptions }),
  });
  const services = createServices(
    { db: deps.db, logger, clock, config, credentials, memoryWrites: { written: embeddings.memoriesWritten, changed: embeddings.memoriesForgotten, removed: embeddings.memoriesForgotten } },
    {
      store,
      archiver,
      sanitizer,
      ...(metrics && {
        onHookEventsRecorded: ({ accepted, duplicates, redactions }) => {
          metrics.hookEvents(accepted, duplicates);
          metrics.redactions(redactions);
        },
      }),
    },
    keyCache,
    oidc,
    embeddings.index,
  );
  oauth = createOAuthServer({ db: deps.db, config, clock, logger, grants: services.oauthGrants });
  const authorizationServer = oauth;
  const limiter = createRequestLimiter(config, logger);
  const maintenance = createMaintenance({
    db: deps.db,
    clock,
    logger,
    archiver,
    ...(deps.maintenanceOptions ? { options: deps.maintenanceOptions } : {}),
    ...(metrics ? { onRemoved: metrics.lifecycleRemoved } : {}),
  });
  metrics?.observeLifecycleDue(() => maintenance.due());
  const app: ApiApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  // Outermost, so the span and the duration cover every other middleware.
  if (tracer) app.use('*', traceRequests(tracer));
  if (metrics) app.use('*', measureRequests(metrics));
  // UUIDs: cheap to make (ULIDs cost a random draw per character, noticeable per request).
  app.use('*', requestId({ headerName: 'x-request-id', limitLength: 128, generator: () => randomUUID() }));
  app.use('*', async (c, next) => {
    c.set('services', services);
    c.set('config', config);
    c.set('logger', logger);
    c.set('limiter', limiter);
    c.set('oauth', authorizationServer);
    if (metrics) c.set('metrics', metrics);
    // No log line of its own: the /mcp request that carries it has one.
    if (inProcess(c)) return next();
    const started = performance.now();
    await next();
    // Method, route pattern and status only: never headers, query strings or bodies.
    logger.info(
      {
        req_id: c.get('requestId'),
        method: c.req.method,
        route: c.req.routePath,
        status: answeredStatus(c),
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });
  const cors = corsMiddleware(config.CORS_ORIGINS);
  if (cors) app.use('*', cors);
  const maxBodyFor = (path: string) =>
    path === postHooksBatchRoute.path ? HOOK_LIMITS.batchBytes : path === postMemoryImportRoute.path ? TRANSFER_LIMITS.importBytes : BODY_LIMITS.requestBytes;
  // An import is read line by line (routes/memory/import.ts counts it), never held whole.
  const streamsItsBody = (path: string) => path === postMemoryImportRoute.path;
  // The size limit before the budget: a body over its route's limit is a 413 whatever
  // else is in flight, never a retryable 503.
  const bodies = [
    requestDeadlines({ requestMs: config.REQUEST_TIMEOUT_MS, bodyReadMs: config.BODY_READ_TIMEOUT_MS }),
    limitBodies(maxBodyFor, streamsItsBody),
    // An import holds one line at a time, and a line is at most a save's body.
    bodyBudget(config.MAX_BODY_BYTES_IN_FLIGHT, maxBodyFor, (path) => (streamsItsBody(path) ? BODY_LIMITS.requestBytes : null)),
  ].map(overHttp);
  app.use('/v1/*', ...bodies);
  app.use(MCP_PATH, ...bodies);
  app.use(MCP_OAUTH_PATH, ...bodies);
  app.use(`${INTERACTION_PATH}/*`, ...bodies);

  registerHealthRoutes(app);
  registerWellKnownRoutes(app);
  registerMemoryRoutes(app);
  registerWorkstreamRoutes(app);
  registerHookRoutes(app);
  registerRecallRoutes(app);
  registerApiKeyRoutes(app);
  registerOrgRoutes(app);
  registerPostAdminOrg(app);
  registerDeleteAdminOrgById(app);
  registerAdminRoutes(app);
  registerOAuthApiRoutes(app);
  registerOAuthRoutes(app, authorizationServer);
  const mcp = registerMcpRoute(app, {
    toolTags: config.MCP_TOOL_TAGS,
    oauth: { path: MCP_OAUTH_PATH, authenticate: requireOAuthToken(authorizationServer), resourceMetadata: authorizationServer.urls.resourceMetadata },
    // Web origins trusted for CORS are trusted for MCP too.
    allowedOrigins: [
      ...config.MCP_ALLOWED_ORIGINS,
      ...config.CORS_ORIGINS.filter((origin) => origin !== '*'),
      ...(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []),
    ],
    serverInfo: SERVICE_INFO,
    ...(metrics ? { onToolCall: metrics.toolCall } : {}),
  });
  if (metrics && config.METRICS_TOKEN) registerMetricsRoute(app, metrics, config.METRICS_TOKEN);

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
      // The repository grants no license (it has no LICENSE file): all rights reserved.
      // Name the real license here (an SPDX identifier) when it has one.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: config.PUBLIC_URL ?? new URL(c.req.url).origin }],
  }));
  registerDocsRoutes(app);
  registerConsoleRoutes(app);

  app.notFound((c) => problemResponse(c, routeNotFound()));
  app.onError(onError);
  const metricsServers: Server[] = [];
  return {
    app,
    services,
    mcp,
    archiver,
    store,
    metrics,
    async serveMetrics(port, hostname) {
      if (!metrics) throw new Error('Metrics are off: set METRICS_PORT or METRICS_TOKEN');
      const server = await serveMetrics(metrics, { port, ...(hostname ? { hostname } : {}), ...(config.METRICS_TOKEN ? { token: config.METRICS_TOKEN } : {}) });
      metricsServers.push(server);
      return server;
    },
    keyCache,
    maintenance,
    embeddings,
    async close({ flush }) {
      // Uses of memories waiting in the process (recall, MCP reads) are written in either case.
      await services.memoryUse.close();
      await archiver.stop(flush);
      await maintenance.stop();
      await embeddings.close();
      metrics?.close();
      for (const server of metricsServers) server.closeAllConnections();
      await Promise.all(metricsServers.map((server) => new Promise((resolve) => server.close(resolve))));
      await limiter.close();
      await keyCache.close();
      await opened?.close();
    },
  };
}
