import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DatabaseHandle } from '@memory-bank/db/system';
import { inject } from 'vitest';
import { createApp, type AppDeps, type MemoryBankApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createMigratedDatabase } from './database';
import { serveApp } from '../../src/http/serve';
import { createLogger } from '../../src/logger';
import { statementSpans } from '../../src/observability/tracing';

export interface TestServer extends MemoryBankApp {
  /** http://127.0.0.1:<port> of a real listening server. */
  url: string;
  /** The Node HTTP server behind `url`. */
  httpServer: Server;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Run the background archiver (default false: tests drive it with archiver.runOnce()). */
  startArchiver?: boolean;
  archiverOptions?: AppDeps['archiverOptions'];
  /** The maintenance loop's lease and timings (tests shorten the lease to see it renewed). */
  maintenanceOptions?: AppDeps['maintenanceOptions'];
  /** The app's clock (default: the system's), e.g. one a test moves forward instead of sleeping. */
  clock?: AppDeps['clock'];
  /**
   * Environment overrides, parsed by the real config loader. EMBEDDINGS_PROVIDER is `none`
   * unless set here: most suites test words, and the local model costs its load in every
   * server that embeds. Suites about meaning set `local` or `openai` (memory-embeddings.test.ts).
   */
  env?: Record<string, string>;
  /**
   * Loads the embedding model and starts the backfill sweep at start (default false: tests run
   * the backfill with embeddings.backfill.tryRun()). Use it with `ownDatabase`: the backfill
   * embeds every memory of the database it runs on, other suites' too.
   */
  startEmbeddings?: boolean;
  /** The embedding backfill's sweep interval and lease. */
  backfillOptions?: AppDeps['backfillOptions'];
  /** Defaults to the run's shared, migrated database. */
  databaseUrl?: string;
  /**
   * A fresh database of its own, dropped on close. Suites that run the archiver need one:
   * an archiver seals every pending workstream of its database, other suites' included.
   */
  ownDatabase?: boolean;
  /** A logger to capture output (default: silent). */
  logger?: AppDeps['logger'];
  /** Lets a test add routes (after the app's own) before the server listens. */
  extend?: (app: MemoryBankApp['app']) => void;
  /** Traces requests, statements and object-store calls with this tracer. */
  tracer?: AppDeps['tracer'];
  /**
   * PUBLIC_URL set to the server's own http://127.0.0.1:<port> (the OAuth issuer is derived
   * from it): the port is chosen before the app is built.
   */
  ownPublicUrl?: boolean;
}

/** A free loopback port: the system picks it for a listener that closes at once. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The real app on a real port, against the real test database. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const own = options.ownDatabase ? await createMigratedDatabase(inject('databaseServerUrl'), 'own') : null;
  const databaseUrl = own?.url ?? options.databaseUrl ?? inject('databaseUrl');
  const archiveDir = await mkdtemp(join(tmpdir(), 'mb-archive-'));
  const port = options.ownPublicUrl ? await freePort() : 0;
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    ARCHIVE_URL: `file://${archiveDir}`,
    // DATABASE_FAST_PATHS=false runs the suite on drizzle's and mysql2's public API only.
    DATABASE_FAST_PATHS: process.env.DATABASE_FAST_PATHS,
    // Tests send bursts on one key; the rate limits are tested where a test sets them.
    RATE_LIMIT_KEY_PER_SECOND: '0',
    RATE_LIMIT_ORG_PER_SECOND: '0',
    EMBEDDINGS_PROVIDER: 'none',
    ...(options.ownPublicUrl && { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }),
    ...options.env,
  });
  const database = openDatabase(databaseUrl, {
    poolSize: 8,
    fastPaths: config.DATABASE_FAST_PATHS,
    connectTimeoutMs: 1000,
    ...(options.tracer ? { traceStatement: statementSpans(options.tracer) } : {}),
  });
  const built = createApp({
    db: database.db,
    config,
    logger: options.logger ?? createLogger(config),
    ...(options.archiverOptions ? { archiverOptions: options.archiverOptions } : {}),
    ...(options.maintenanceOptions ? { maintenanceOptions: options.maintenanceOptions } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.tracer ? { tracer: options.tracer } : {}),
    ...(options.backfillOptions ? { backfillOptions: options.backfillOptions } : {}),
  });
  if (options.startArchiver) built.archiver.start();
  if (options.startEmbeddings) built.embeddings.start();
  options.extend?.(built.app);
  const server = serveApp(built.app, { port, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    ...built,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    httpServer: server,
    database,
    config,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await built.close({ flush: false });
      await database.close();
      await own?.drop();
      await rm(archiveDir, { recursive: true, force: true });
    },
  };
}
