import { ensureDatabase, migrateDatabase, openDatabase, reindexMemorySearch } from '@memory-bank/db/system';
import { createApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { serveApp } from './http/serve';
import { createLogger } from './logger';

const DATABASE_WAIT_MS = 60_000;

/** Waits for the database server (e.g. a container still starting), then creates the database if missing. */
async function prepareDatabase(config: Config, log: (message: string) => void): Promise<void> {
  const deadline = Date.now() + DATABASE_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      await ensureDatabase(config.DATABASE_URL);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      const retriable = code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
      if (!retriable || Date.now() > deadline) throw error;
      if (attempt === 1) log(`Waiting for the database at ${new URL(config.DATABASE_URL).host} …`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  await prepareDatabase(config, (message) => console.log(message));
  const database = openDatabase(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  await migrateDatabase(database.pool);
  const built = createApp({ db: database.db, config, logger });
  const { app, mcp, archiver, store, maintenance } = built;
  // Build the MCP tools now: a bad OpenAPI document (say, two arguments of one tool
  // with the same name) stops start-up instead of the first agent's request.
  mcp.tools();

  const server = serveApp(app, { port: config.PORT, logger, ...(config.HOST ? { hostname: config.HOST } : {}) }, (info) => {
    const base = config.PUBLIC_URL ?? `http://${config.HOST && config.HOST !== '0.0.0.0' && config.HOST !== '::' ? config.HOST : 'localhost'}:${info.port}`;
    console.log(`Memory Bank is listening on ${base}`);
    console.log(`API reference: ${base}/docs  (OpenAPI 3.1: ${base}/openapi.json)`);
    console.log(`MCP (Streamable HTTP): ${base}/mcp`);
  });
  // Seals what is pending (from before a crash, too) and keeps sealing in the background.
  archiver.start();
  logger.info({ archive: store.description }, 'archiver started');
  maintenance.start();
  // Memories saved before the current search format are re-indexed in the background
  // (docs/operations.md#search-re-index); they stay findable by their exact words meanwhile.
  reindexMemorySearch(database.pool, { onProgress: (progress) => logger.info(progress, 'search re-index') }).catch((error: unknown) =>
    logger.error({ err: error }, 'search re-index stopped; it resumes at the next start'),
  );

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    // Stop accepting; idle keep-alive sockets would otherwise hold close() open.
    server.close(() => {
      // Seal every pending event before leaving, so nothing waits for the next start.
      built
        .close({ flush: true })
        .then(() => database.close())
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 20_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(`Memory Bank could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
});
