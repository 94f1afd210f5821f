import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * A browser without a screen: follows nothing on its own and keeps cookies per name (the
 * authorization server's cookies are host-only, on one loopback origin in these tests).
 */
export class CookieBrowser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const path = attributes.map((attribute) => attribute.trim()).find((attribute) => attribute.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attributes.some((attribute) => /expires=thu, 01 jan 1970/i.test(attribute.trim()));
      const key = `${name!.trim()} ${path}`;
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { value: value.join('='), path });
    }
  }

  private cookieHeader(url: string): string {
    const path = new URL(url).pathname;
    return [...this.cookies.entries()]
      .filter(([, cookie]) => path === cookie.path || path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`) || cookie.path === '/')
      .map(([key, cookie]) => `${key.split(' ')[0]}=${cookie.value}`)
      .join('; ');
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.remember(response);
    return response;
  }

  /** Follows redirects while they stay under `origin`; the first Location elsewhere (or the last answer). */
  async follow(url: string, origin: string): Promise<{ response: Response; url: string }> {
    let current = url;
    for (let hop = 0; hop < 10; hop++) {
      const response = await this.fetch(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
      current = new URL(location, current).href;
      if (!current.startsWith(origin)) return { response, url: current };
    }
    throw new Error('too many redirects');
  }
}

/** A loopback redirect URI (RFC 8252) a test owns; it answers every callback with 200. */
export async function startCallbackServer(): Promise<{ redirectUri: string; close(): Promise<void>; server: Server }> {
  const server = createServer((_request, response) => response.end('OK'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    redirectUri: `http://127.0.0.1:${port}/callback`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface AuthorizeOptions {
  baseUrl: string;
  clientId: string;
  redirectUri: string;
  /** The person's console credential (an API key). */
  key: string;
  /** Default: the agent scopes; null: no `scope` parameter. */
  scope?: string | null;
  resource?: string | null;
  decision?: 'allow' | 'deny';
  browser?: CookieBrowser;
  extra?: Record<string, string>;
}

export interface Authorized {
  /** Where the authorization server sent the browser at the end (the client's redirect URI with its query). */
  callback: URL;
  verifier: string;
  state: string;
}

/** An authorization request as an MCP client builds it: PKCE (S256), state, the agent scopes and the MCP resource unless told otherwise. */
export function authorizationRequest(
  options: Pick<AuthorizeOptions, 'baseUrl' | 'clientId' | 'redirectUri' | 'scope' | 'resource' | 'extra'>,
): { url: string; verifier: string; state: string } {
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    ...(options.scope !== null && { scope: options.scope ?? 'memory:read memory:write' }),
    ...(options.resource !== null && { resource: options.resource ?? `${options.baseUrl}/mcp/oauth` }),
    ...options.extra,
  });
  return { url: `${options.baseUrl}/oauth/auth?${query}`, verifier, state };
}

/**
 * One authorization-code flow as a person's browser runs it: the authorization request,
 * the console's consent (its API calls, made with the person's key and the browser's
 * cookies), and the way back to the client. No screen: the browser test drives the real one.
 */
export async function authorize(options: AuthorizeOptions): Promise<Authorized> {
  const { url, verifier, state } = authorizationRequest(options);
  const callback = await answerAuthorizationRequest({ ...options, authorizationUrl: url });
  return { callback, verifier, state };
}

export interface AnswerOptions extends Pick<AuthorizeOptions, 'baseUrl' | 'key' | 'decision' | 'browser'> {
  /** An authorization request a client built (the authorization endpoint's URL with its query). */
  authorizationUrl: string;
}

/**
 * The person's part of an authorization request a client made: the server's redirects, the
 * console's consent when it asks, and the redirects back. Answers where the server sent the
 * browser at the end (the client's redirect URI with its query), without visiting it.
 */
export async function answerAuthorizationRequest(options: AnswerOptions): Promise<URL> {
  const browser = options.browser ?? new CookieBrowser();
  const start = await browser.follow(options.authorizationUrl, options.baseUrl);
  let landed = new URL(start.url);
  const consentPage = /^\/console\/authorize\/([^/]+)$/.exec(landed.pathname);
  if (consentPage) {
    const uid = decodeURIComponent(consentPage[1]!);
    const consentUrl = `${options.baseUrl}/oauth/interaction/${encodeURIComponent(uid)}/consent`;
    const auth = { authorization: `Bearer ${options.key}` };
    const details = await browser.fetch(consentUrl, { headers: auth });
    if (details.status !== 200) throw new Error(`consent details: ${details.status} ${await details.text()}`);
    const decided = await browser.fetch(consentUrl, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: options.decision ?? 'allow' }),
    });
    if (decided.status !== 200) throw new Error(`consent decision: ${decided.status} ${await decided.text()}`);
    const { redirect_to: next } = (await decided.json()) as { redirect_to: string };
    landed = new URL((await browser.follow(next, options.baseUrl)).url);
  }
  return landed;
}

/** The token endpoint, as a public client calls it. */
export async function tokenRequest(baseUrl: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Registers a public client (RFC 7591). */
export async function registerClient(baseUrl: string, metadata: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
