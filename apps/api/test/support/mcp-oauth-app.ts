import { randomBytes } from 'node:crypto';
import {
  auth,
  Client,
  StreamableHTTPClientTransport,
  type AuthResult,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';

// For tests outside this package (the console's browser tests), which do not depend on the SDK themselves.
export { UnauthorizedError } from '@modelcontextprotocol/client';
export type { Client } from '@modelcontextprotocol/client';

/**
 * An MCP app's side of OAuth for the official client SDK, kept in memory: what the SDK asks
 * an app to store, and the authorization URLs it asked the app to open in a browser (the
 * test opens them). With `clientMetadataUrl`, the SDK uses it as the client id where the
 * authorization server accepts client metadata documents.
 */
export class McpOAuthApp implements OAuthClientProvider {
  /** Every authorization URL the SDK asked the app to open, in order. */
  readonly authorizationUrls: URL[] = [];
  /** The `state` of the latest authorization request. */
  lastState = '';
  private information: StoredOAuthClientInformation | undefined;
  private stored: StoredOAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    readonly clientMetadataUrl?: string,
  ) {}

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  clientInformation() {
    return this.information;
  }

  saveClientInformation(information: StoredOAuthClientInformation) {
    this.information = information;
  }

  tokens() {
    return this.stored;
  }

  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL) {
    this.authorizationUrls.push(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string) {
    this.verifier = codeVerifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.information = undefined;
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  /** The SDK's auth() as a transport runs it after a 401: with a refresh token on hand, a refresh. */
  refresh(mcpUrl: URL): Promise<AuthResult> {
    return auth(this, { serverUrl: mcpUrl });
  }

  /** A transport to `mcpUrl` that authenticates with this app's tokens. */
  transport(mcpUrl: URL): StreamableHTTPClientTransport {
    return new StreamableHTTPClientTransport(mcpUrl, { authProvider: this });
  }

  /** An SDK client connected to `mcpUrl` (rejects with UnauthorizedError while the app has no usable token). */
  async connect(mcpUrl: URL, transport = this.transport(mcpUrl)): Promise<Client> {
    const client = new Client({ name: this.clientMetadata.client_name ?? 'memory-bank-tests', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }
}
