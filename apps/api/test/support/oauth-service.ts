import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createMigratedDatabase } from './database';
import { bodyOf, client } from './http';
import { startService, stopService } from './process';
import { freePort } from './server';

/**
 * The real service (`pnpm start`) as an MCP client meets it: PUBLIC_URL is its own
 * http://127.0.0.1:<port> (the OAuth issuer and the MCP resource derive from it), client
 * metadata documents may be fetched from loopback, and `trust` names a certificate file
 * the process trusts from its start (NODE_EXTRA_CA_CERTS). A database of its own: the
 * process runs the archiver over it.
 */
export interface OAuthService {
  /** PUBLIC_URL: http://127.0.0.1:<port> */
  url: string;
  /** A fresh org provisioned through the operator API: its owner's API key. */
  provisionOrg(name: string): Promise<{ ownerKey: string }>;
  /** What the process printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export async function startOAuthService(label: string, options: { trust?: string } = {}): Promise<OAuthService> {
  const operatorToken = randomBytes(24).toString('base64url');
  const database = await createMigratedDatabase(inject('databaseServerUrl'), label);
  const archive = await mkdtemp(join(tmpdir(), 'mb-archive-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService({
      DATABASE_URL: database.url,
      PORT: String(port),
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      ARCHIVE_URL: `file://${archive}`,
      MEMORY_BANK_OPERATOR_TOKEN: operatorToken,
      OAUTH_CIMD_ALLOW_LOOPBACK: 'true',
      // Conformance suites send bursts on one credential; the limits have their own tests.
      RATE_LIMIT_KEY_PER_SECOND: '0',
      RATE_LIMIT_ORG_PER_SECOND: '0',
      ...(options.trust && { NODE_EXTRA_CA_CERTS: options.trust }),
    });
  } catch (error) {
    await database.drop();
    await rm(archive, { recursive: true, force: true });
    throw error;
  }
  const operator = client(url, operatorToken);
  let orgs = 0;
  return {
    url,
    async provisionOrg(name) {
      const email = `${label}-${orgs++}-${Date.now().toString(36)}@example.test`;
      const provisioned = bodyOf(await operator.post('/v1/admin/orgs', { body: { name, owner: { email } } }), 201);
      return { ownerKey: provisioned.api_key.key };
    },
    output: () => service.output(),
    async stop() {
      await stopService(service.child);
      await database.drop();
      await rm(archive, { recursive: true, force: true });
    },
  };
}
