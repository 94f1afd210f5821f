import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsDocuments, type HttpsDocuments } from './support/https-documents';
import { authorize, pkce, startCallbackServer } from './support/oauth';
import { startOAuthService, type OAuthService } from './support/oauth-service';

/**
 * Client metadata documents (CIMD) as the service really fetches them: over https from a
 * loopback server the test runs (OAUTH_CIMD_ALLOW_LOOPBACK, its certificate trusted through
 * NODE_EXTRA_CA_CERTS). A document that redirects, is too large, too slow, names another
 * client id or another redirect URI is refused with invalid_client (or invalid_redirect_uri),
 * as JSON and never with a redirect.
 */
let documents: HttpsDocuments;
let service: OAuthService;
let ownerKey: string;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;

beforeAll(async () => {
  documents = await startHttpsDocuments();
  service = await startOAuthService('oauthdocuments', { trust: documents.certificateFile });
  ({ ownerKey } = await service.provisionOrg('Documents org'));
  callback = await startCallbackServer();
}, 120_000);
afterAll(async () => {
  await callback?.close();
  await service?.stop();
  await documents?.close();
});

const metadata = (clientId: string, redirectUri = callback.redirectUri) => ({
  client_id: clientId,
  client_name: 'Document client',
  redirect_uris: [redirectUri],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
});

/** The authorization endpoint's first answer for a client id (and a redirect URI). */
async function firstHop(clientId: string, redirectUri = callback.redirectUri) {
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: 'memory:read', state: 's' });
  const res = await fetch(`${service.url}/oauth/auth?${query}`, { redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), error: text.startsWith('{') ? (JSON.parse(text) as { error: string }).error : text };
}

describe('client metadata documents', () => {
  it('a valid document is fetched and the client is sent to consent', async () => {
    const clientId = documents.serve('/valid.json', (url) => metadata(url));
    const flow = await authorize({ baseUrl: service.url, clientId, redirectUri: callback.redirectUri, key: ownerKey });
    expect(flow.callback.searchParams.get('code')).toBeTruthy();
    expect(documents.fetches('/valid.json')).toBe(1);
  });

  it('refuses a document that redirects, is over 5 KB, answers after 3 s, names another client id or is not JSON', async () => {
    const target = documents.serve('/target.json', (url) => metadata(url));
    const cases: Record<string, string> = {
      redirect: documents.answer('/redirect.json', (response) => response.writeHead(302, { location: target }).end()),
      large: documents.answer('/large.json', (response, origin) => {
        const big = { ...metadata(`${origin}/large.json`), padding: 'x'.repeat(6 * 1024) };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(big));
      }),
      slow: documents.answer('/slow.json', (response, origin) => {
        setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata(`${origin}/slow.json`))), 3_500).unref();
      }),
      impostor: documents.serve('/impostor.json', () => metadata('https://claude.ai/oauth/client.json')),
      garbage: documents.answer('/garbage.json', (response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{ not json')),
      missing: `${documents.origin}/missing.json`,
    };
    for (const [name, clientId] of Object.entries(cases)) {
      const hop = await firstHop(clientId);
      expect(hop, name).toMatchObject({ status: 400, location: null });
      expect(['invalid_client', 'invalid_client_metadata'], `${name}: ${hop.error}`).toContain(hop.error);
    }
  }, 30_000);

  it('redirect URIs must match the document exactly', async () => {
    const clientId = documents.serve('/exact.json', (url) => metadata(url));
    for (const redirectUri of [`${callback.redirectUri}/more`, callback.redirectUri.replace('/callback', '/other'), 'https://attacker.example/callback']) {
      const hop = await firstHop(clientId, redirectUri);
      expect(hop, redirectUri).toMatchObject({ status: 400, location: null, error: 'invalid_redirect_uri' });
    }
  });
});
