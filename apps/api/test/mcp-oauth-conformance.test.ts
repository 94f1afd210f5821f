import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBearerProxy } from './support/bearer-proxy';
import { bodyOf, client } from './support/http';
import { startHttpsDocuments, type HttpsDocuments } from './support/https-documents';
import { expectEveryApplicableCheck, REVISIONS, runNode22, runServerSuite } from './support/mcp-conformance';
import { ensureNode22Tools, type Node22Tools } from './support/node22-tools';
import { answerAuthorizationRequest, authorize, registerClient, tokenRequest } from './support/oauth';
import { startOAuthService, type OAuthService } from './support/oauth-service';
import { freePort } from './support/server';

/**
 * The official MCP conformance suite against the OAuth side of the service: its
 * `authorization` command against the authorization server, with a client that has a
 * metadata document (CIMD) and with one registered dynamically (RFC 7591), and its server
 * scenarios against /mcp/oauth with an OAuth access token. The real service runs as a
 * process of its own: it fetches the client metadata document over https from this test,
 * and trusts the test's throw-away certificate only when told so at its start.
 */
let tools: Node22Tools;
let documents: HttpsDocuments;
let service: OAuthService;
let ownerKey: string;

beforeAll(async () => {
  [tools, documents] = await Promise.all([ensureNode22Tools(), startHttpsDocuments()]);
  service = await startOAuthService('oauthconformance', { trust: documents.certificateFile });
  ({ ownerKey } = await service.provisionOrg('Conformance org'));
  // One memory, so resources/list has an entry and resources/read is exercised too.
  bodyOf(await client(service.url, ownerKey).post('/v1/memory', { body: { content: 'The conformance suite runs against this memory server over OAuth.' } }), 201);
}, 240_000);
afterAll(async () => {
  await service?.stop();
  await documents?.close();
});

const redirectUriOn = (port: number) => `http://127.0.0.1:${port}/callback`;
const publicClient = (redirectUri: string, name: string) => ({
  client_name: name,
  redirect_uris: [redirectUri],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
});

async function registeredClient(redirectUri: string, name: string): Promise<string> {
  const registered = await registerClient(service.url, publicClient(redirectUri, name));
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  return registered.body.client_id as string;
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/**
 * `conformance authorization` with `clientId`: its authorization-code-grant scenario prints
 * an authorization URL and waits for the person's browser at its callback; this test is that
 * person (the consent API, allowed with the owner's key) and that browser (it visits the
 * callback). Answers the exit code, the output and every check by scenario.
 */
async function runAuthorizationSuite(clientId: string, port: number) {
  const issuer = `${service.url}/oauth`;
  const authorizationUrl = new RegExp(`^(${issuer.replaceAll('.', '\\.')}/auth\\?\\S+)$`, 'm');
  const results = await mkdtemp(join(tmpdir(), 'mb-conformance-'));
  // The tool waits minutes for its callback: it is ended when answering fails.
  const stop = new AbortController();
  let answered: Promise<void> | undefined;
  try {
    const running = runNode22(
      tools,
      [tools.conformance, 'authorization', '--url', issuer, '--client-id', clientId, '--resource', `${service.url}/mcp/oauth`, '--port', String(port), '--output-dir', results],
      (stdout) => {
        const asked = authorizationUrl.exec(stdout);
        if (answered || !asked || !stdout.includes('Callback server started')) return;
        answered = (async () => {
          const callback = await answerAuthorizationRequest({ baseUrl: service.url, authorizationUrl: asked[1]!, key: ownerKey });
          expect(callback.origin + callback.pathname).toBe(redirectUriOn(port));
          await (await fetch(callback)).text();
        })().catch((error: unknown) => {
          stop.abort();
          throw error;
        });
      },
      stop.signal,
    );
    // Why the tool was ended, rather than that it was.
    const run = await running.catch(async (error: unknown) => {
      await answered;
      throw error;
    });
    await answered;
    const checks: Record<string, Check[]> = {};
    for (const directory of await readdir(results)) {
      const scenario = directory.replace(/^authorization-server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
      checks[scenario] = JSON.parse(await readFile(join(results, directory, 'checks.json'), 'utf8')) as Check[];
    }
    return { ...run, checks };
  } finally {
    await rm(results, { recursive: true, force: true });
  }
}

/** Both scenarios ran, and every check passed. */
function expectEveryCheckPassed({ code, output, checks }: Awaited<ReturnType<typeof runAuthorizationSuite>>) {
  expect(Object.keys(checks).sort(), output).toEqual(['authorization-code-grant', 'authorization-server-metadata-endpoint']);
  const outcomes = Object.values(checks)
    .flat()
    .map((check) => ({ id: check.id, status: check.status, ...(check.status !== 'SUCCESS' && { errorMessage: check.errorMessage }) }));
  expect(outcomes, output).toEqual(outcomes.map(({ id }) => ({ id, status: 'SUCCESS' })));
  expect(outcomes.map((outcome) => outcome.id)).toEqual(expect.arrayContaining(['authorization-server-metadata', 'authorization-server-metadata-cimd', 'authorization-code-grant']));
  expect(code, output).toBe(0);
}

describe('the conformance suite’s authorization command', () => {
  it('runs both scenarios with a client identified by its metadata document (CIMD): every check passes', async () => {
    const port = await freePort();
    const clientId = documents.serve('/clients/conformance.json', (url) => ({ client_id: url, ...publicClient(redirectUriOn(port), 'Conformance suite') }));
    const run = await runAuthorizationSuite(clientId, port);
    expectEveryCheckPassed(run);
    expect(documents.fetches('/clients/conformance.json')).toBeGreaterThan(0);
  }, 60_000);

  it('runs both scenarios with a dynamically registered client: every check passes', async () => {
    const port = await freePort();
    const run = await runAuthorizationSuite(await registeredClient(redirectUriOn(port), 'Conformance suite (registered)'), port);
    expectEveryCheckPassed(run);
  }, 60_000);
});

describe('the conformance suite’s server scenarios at /mcp/oauth', () => {
  let proxy: Awaited<ReturnType<typeof startBearerProxy>>;
  beforeAll(async () => {
    // An access token as an MCP agent gets one: its scopes, bound to /mcp/oauth.
    const redirectUri = redirectUriOn(await freePort());
    const clientId = await registeredClient(redirectUri, 'Conformance suite (server scenarios)');
    const { callback, verifier } = await authorize({ baseUrl: service.url, clientId, redirectUri, key: ownerKey });
    const code = callback.searchParams.get('code');
    expect(code, callback.href).toBeTruthy();
    const tokens = await tokenRequest(service.url, { grant_type: 'authorization_code', code: code!, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier, resource: `${service.url}/mcp/oauth` });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    // The suite cannot send Authorization; the proxy adds the access token.
    proxy = await startBearerProxy(service.url, tokens.body.access_token as string);
  });
  afterAll(() => proxy?.close());

  for (const revision of REVISIONS) {
    it(`passes every applicable check at ${revision}, as /mcp does`, async () => {
      expectEveryApplicableCheck(revision, await runServerSuite(tools, `${proxy.url}/mcp/oauth`, revision));
    }, 90_000);
  }
});
