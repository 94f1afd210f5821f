import { expect } from 'vitest';
import { authorizationRequest as buildAuthorizationRequest, authorize, registerClient, startCallbackServer, tokenRequest } from '../../../api/test/support/oauth';

/**
 * An OAuth client of the server's authorization server, as an MCP client such as Claude is:
 * registered dynamically (RFC 7591), public (PKCE, no secret), with a loopback redirect URI
 * that a small HTTP server of the test answers.
 */
export interface TestApp {
  clientId: string;
  name: string;
  redirectUri: string;
  close(): Promise<void>;
}

export async function registerApp(serverUrl: string, name: string): Promise<TestApp> {
  const callback = await startCallbackServer();
  const registered = await registerClient(serverUrl, {
    redirect_uris: [callback.redirectUri],
    client_name: name,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  if (registered.status !== 201) await callback.close();
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  return { clientId: registered.body.client_id as string, name, redirectUri: callback.redirectUri, close: callback.close };
}

/** The apps a suite registers, each with its callback server, closed together in afterAll. */
export function appsOfSuite() {
  const apps: TestApp[] = [];
  return {
    async register(serverUrl: string, name: string): Promise<TestApp> {
      const app = await registerApp(serverUrl, name);
      apps.push(app);
      return app;
    },
    closeAll: () => Promise.all(apps.map((app) => app.close())),
  };
}

export interface AuthorizationRequest {
  /** The authorization endpoint's URL with the request in its query: where a browser is sent. */
  url: string;
  verifier: string;
  state: string;
}

/** An authorization request with PKCE (S256) for the MCP resource, as an MCP client sends it. */
export function authorizationRequest(serverUrl: string, app: TestApp, scope = 'memory:read memory:write'): AuthorizationRequest {
  return buildAuthorizationRequest({ baseUrl: serverUrl, clientId: app.clientId, redirectUri: app.redirectUri, scope });
}

/** Trades an authorization code for tokens (a public client: the verifier proves it). */
export async function redeemCode(serverUrl: string, app: TestApp, verifier: string, code: string): Promise<{ access_token: string; refresh_token?: string }> {
  const answer = await tokenRequest(serverUrl, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: app.clientId, code_verifier: verifier, resource: `${serverUrl}/mcp/oauth` });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { access_token: string; refresh_token?: string };
}

/**
 * `key`'s person connects the app without a screen (the consent API as the console calls
 * it), and the app redeems its code: a connected app for the screens that list them.
 */
export async function connectApp(serverUrl: string, key: string, app: TestApp) {
  const authorized = await authorize({ baseUrl: serverUrl, clientId: app.clientId, redirectUri: app.redirectUri, key });
  expect(authorized.callback.searchParams.get('error')).toBeNull();
  return redeemCode(serverUrl, app, authorized.verifier, authorized.callback.searchParams.get('code')!);
}
