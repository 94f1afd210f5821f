import { signIn } from '../session';

/**
 * OIDC sign-in: authorization code with PKCE (RFC 7636) against the provider the API trusts
 * (OIDC_ISSUER), which the server names in the page's <meta> tags. The verifier, the state
 * and the screen to come back to wait in sessionStorage during the round trip to the provider.
 */
export interface OidcSettings {
  issuer: string;
  clientId: string;
}

const PENDING = 'memory-bank.oidc-pending';

interface Pending {
  verifier: string;
  state: string;
  /** The console path (below /console) the sign-in started on, e.g. an app's consent screen. */
  returnTo: string;
}

export function oidcSettings(): OidcSettings | null {
  const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? null;
  const issuer = meta('memory-bank-oidc-issuer');
  const clientId = meta('memory-bank-oidc-client-id');
  return issuer && clientId ? { issuer, clientId } : null;
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
const redirectUri = () => `${window.location.origin}/console/callback`;

async function discover(issuer: string): Promise<{ authorization_endpoint: string; token_endpoint: string }> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`The sign-in provider answered ${response.status}`);
  return (await response.json()) as { authorization_endpoint: string; token_endpoint: string };
}

export async function startOidcSignIn(settings: OidcSettings, returnTo: string): Promise<void> {
  const provider = await discover(settings.issuer);
  const verifier = randomString();
  const state = randomString();
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, returnTo } satisfies Pending));
  const url = new URL(provider.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: settings.clientId,
    redirect_uri: redirectUri(),
    scope: 'openid email profile',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  window.location.assign(url);
}

/**
 * Back from the provider: trades the code for tokens and signs in with the ID token (its
 * audience is the client id). Answers the console path the sign-in started on.
 */
export async function finishOidcSignIn(settings: OidcSettings, query: URLSearchParams): Promise<string> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as Pending | null;
  sessionStorage.removeItem(PENDING);
  const error = query.get('error');
  if (error) throw new Error(`The sign-in provider refused: ${error}`);
  const code = query.get('code');
  if (!pending || !code || query.get('state') !== pending.state) throw new Error('This sign-in was not started here, or was already used. Sign in again.');
  const provider = await discover(settings.issuer);
  const response = await fetch(provider.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri(), client_id: settings.clientId, code_verifier: pending.verifier }),
  });
  if (!response.ok) throw new Error(`The sign-in provider answered ${response.status}`);
  const tokens = (await response.json()) as { id_token?: string };
  if (!tokens.id_token) throw new Error('The sign-in provider returned no ID token');
  signIn(tokens.id_token);
  return pending.returnTo.startsWith('/') ? pending.returnTo : '/';
}
