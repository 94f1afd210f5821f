import type { TestProject } from 'vitest/node';
import { createMigratedDatabase, dropStaleTestDatabases, startTestDatabaseServer } from './database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated database shared by the run; suites isolate themselves by creating their own orgs. */
    databaseUrl: string;
    /** The server, for suites that need a database of their own. */
    databaseServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startTestDatabaseServer();
  if (server.kind === 'server') await dropStaleTestDatabases(server.serverUrl);
  const database = await createMigratedDatabase(server.serverUrl, 'run');
  console.log(`[test] database: ${server.kind} (${new URL(database.url).host}${new URL(database.url).pathname})`);
  project.provide('databaseUrl', database.url);
  project.provide('databaseServerUrl', server.serverUrl);
  return async () => {
    await database.drop();
    await server.stop();
  };
}
