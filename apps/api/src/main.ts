import { backfillMemoryContentKeys, describeDatabase, ensureDatabase, migrateDatabase, openDatabase, reindexMemorySearch } from '@memory-bank/db/system';
import type { Logger } from 'pino';
import { createApp, SERVICE_INFO } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { serveApp } from './http/serve';
import { trackInFlight } from './http/shutdown';
import { SHUTDOWN_LIMITS } from './limits';
import { createLogger, errorForLog, flushLogsSync } from './logger';
import { loadSpellingDictionary } from './spelling';
import { startTracing, statementSpans } from './observability/tracing';

const DATABASE_WAIT_MS = 60_000;

/** Waits for the database server (e.g. a container still starting), then creates the database if missing. */
async function prepareDatabase(config: Config, logger: Logger): Promise<{ created: boolean }> {
  const deadline = Date.now() + DATABASE_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await ensureDatabase(config.DATABASE_URL);
    } catch (error) {
      const code = (error as { code?: string }).code;
      const retriable = code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
      if (!retriable || Date.now() > deadline) throw error;
      if (attempt === 1) logger.info({ database: describeDatabase(config.DATABASE_URL), code }, 'waiting for the database');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  const database = describeDatabase(config.DATABASE_URL);
  // Typo correction's word lists, read while the database is prepared rather than on the first search.
  loadSpellingDictionary().catch((error: unknown) => logger.error({ error: errorForLog(error) }, 'the word lists of typo correction could not be read; search does not correct typos'));
  const { created } = await prepareDatabase(config, logger);
  // Before the pool, so its statements are traced (OTEL_EXPORTER_OTLP_ENDPOINT; off when unset).
  const tracing = startTracing(config, SERVICE_INFO.version);
  const handle = openDatabase(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    fastPaths: config.DATABASE_FAST_PATHS,
    ...(tracing && { traceStatement: statementSpans(tracing.tracer) }),
  });
  const { applied } = await migrateDatabase(handle.pool);
  logger.info({ database, created, migrations_applied: applied }, 'database ready');
  const built = createApp({ db: handle.db, config, logger, ...(tracing && { tracer: tracing.tracer }) });
  const { app, mcp, archiver, store, maintenance } = built;
  // Build the MCP tools now: a bad OpenAPI document (say, two arguments of one tool
  // with the same name) stops start-up instead of the first agent's request.
  mcp.tools();

  const server = serveApp(app, { port: config.PORT, logger, ...(config.HOST ? { hostname: config.HOST } : {}) }, (info) => {
    const base = config.PUBLIC_URL ?? `http://${config.HOST && config.HOST !== '0.0.0.0' && config.HOST !== '::' ? config.HOST : 'localhost'}:${info.port}`;
    logger.info({ url: base, port: info.port, docs: `${base}/docs`, openapi: `${base}/openapi.json`, mcp: `${base}/mcp`, mcp_oauth: `${base}/mcp/oauth` }, 'listening');
    flushLogsSync(logger);
    // For people: stdout carries only JSON log lines.
    // Without the operator token the provisioning route answers 404 like any unknown path: say so here.
    const operatorRoute = config.MEMORY_BANK_OPERATOR_TOKEN
      ? ''
      : 'POST /v1/admin/orgs is off: set MEMORY_BANK_OPERATOR_TOKEN (24+ characters) and restart to turn it on, or create an org with `pnpm cli orgs create --name <name> --owner-email <email>` (same DATABASE_URL as the server).\n';
    process.stderr.write(
      `Memory Bank is listening on ${base}\nAPI reference: ${base}/docs  (OpenAPI 3.1: ${base}/openapi.json)\nMCP (Streamable HTTP): ${base}/mcp with an API key, ${base}/mcp/oauth for OAuth clients (Claude, ChatGPT)\nWeb console: ${base}/console\n${operatorRoute}`,
    );
  });
  const requests = trackInFlight(server);
  const metricsServer = config.METRICS_PORT === undefined ? undefined : await built.serveMetrics(config.METRICS_PORT, config.HOST);
  if (metricsServer) logger.info({ port: (metricsServer.address() as { port: number }).port }, 'metrics listening');
  // Seals what is pending (from before a crash, too) and keeps sealing in the background.
  archiver.start();
  logger.info({ archive: store.description }, 'archiver started');
  maintenance.start();
  // The local model loads in its worker thread now (not at the first search), and memories
  // without a current vector are embedded in the background (docs/operations.md#embeddings).
  built.embeddings.start();
  // Memories saved before the current search format are re-indexed in the background
  // (docs/operations.md#search-re-index); they stay findable by their exact words meanwhile.
  reindexMemorySearch(handle.pool, { onProgress: (progress) => logger.info(progress, 'search re-index') }).catch((error: unknown) =>
    logger.error({ err: error }, 'search re-index stopped; it resumes at the next start'),
  );
  // Memories saved before duplicate detection get their content key (it finds them then).
  backfillMemoryContentKeys(handle.db).then(
    (keyed) => keyed > 0 && logger.info({ keyed }, 'memory content keys backfilled'),
    (error: unknown) => logger.error({ err: error }, 'content key backfill stopped; it resumes at the next start'),
  );

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    // A terminal's Ctrl-C signals the whole process group and pnpm forwards it once more:
    // a repeated signal does not cut the shutdown short (the shutdown has its own deadline).
    if (stopping) return;
    stopping = true;
    logger.info({ signal, in_flight: requests.size, drain_ms: config.SHUTDOWN_DRAIN_MS }, 'shutting down');
    flushLogsSync(logger);
    setTimeout(() => {
      logger.error({ cleanup_ms: SHUTDOWN_LIMITS.cleanupMs }, 'shutdown did not finish in time');
      process.exit(1);
    }, config.SHUTDOWN_DRAIN_MS + SHUTDOWN_LIMITS.cleanupMs).unref();
    // Stop accepting; let in-flight requests finish within the drain time.
    const drain = await requests.drain(config.SHUTDOWN_DRAIN_MS);
    if (drain.drained) logger.info({}, 'requests drained');
    else logger.warn({ abandoned: drain.abandoned }, 'drain time over: unfinished requests were cut off');
    try {
      // Seal and store every pending event, so nothing waits for the next start.
      await built.close({ flush: true });
      await handle.close();
      metricsServer?.close();
      await tracing?.shutdown();
    } catch (error) {
      logger.error({ err: errorForLog(error) }, 'shutdown failed');
      process.exit(1);
    }
    logger.info({}, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void shutdown(signal));
  process.on('SIGTERM', (signal) => void shutdown(signal));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(`Memory Bank could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
});
