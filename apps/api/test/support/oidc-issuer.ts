import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/**
 * A local OpenID Connect issuer for tests: discovery document and JWKS over real HTTP on
 * 127.0.0.1, signing keys generated at start-up. Nothing leaves the machine.
 */
export interface TestIssuer {
  /** The issuer identifier (`iss`), e.g. http://127.0.0.1:41234. */
  url: string;
  /** The audience tokens are minted for unless told otherwise. */
  audience: string;
  /** How often each document was fetched (caching assertions). */
  requests: { discovery: number; jwks: number };
  /** The kid new tokens are signed with. */
  readonly currentKid: string;
  /** A signed token: defaults (iss, aud, sub, iat, exp in 5 min) overridden by `claims`; `undefined` drops a claim. */
  sign(claims?: Record<string, unknown>, options?: { kid?: string }): Promise<string>;
  /** Signed with a key that is not in the JWKS (under `kid`, default: a fresh kid). */
  signWithUnpublishedKey(claims?: Record<string, unknown>, options?: { kid?: string }): Promise<string>;
  /** HS256 with a shared secret someone guessed, under the current kid. */
  signWithSecret(claims: Record<string, unknown>, secret: string): Promise<string>;
  /** `alg: none`, no signature. */
  unsigned(claims?: Record<string, unknown>): string;
  /** Publishes a new key and signs with it from now on; returns its kid. */
  rotate(alg?: 'RS256' | 'ES256'): Promise<string>;
  /** Stops publishing every key but the current one. */
  dropOldKeys(): void;
  /** While true, every request answers 503. */
  setOutage(down: boolean): void;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function newKey(alg: 'RS256' | 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const kid = `test-${alg.toLowerCase()}-${randomUUID().slice(0, 8)}`;
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export async function startTestIssuer(options: { audience?: string } = {}): Promise<TestIssuer> {
  const audience = options.audience ?? 'memory-bank-test';
  let keys: SigningKey[] = [await newKey('RS256')];
  let outage = false;
  const requests = { discovery: 0, jwks: 0 };
  let url = '';

  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (outage) return send(503, { error: 'temporarily_unavailable' });
    if (req.url === '/.well-known/openid-configuration') {
      requests.discovery++;
      return send(200, {
        issuer: url,
        jwks_uri: `${url}/jwks.json`,
        authorization_endpoint: `${url}/authorize`,
        token_endpoint: `${url}/token`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      });
    }
    if (req.url === '/jwks.json') {
      requests.jwks++;
      return send(200, { keys: keys.map((key) => key.publicJwk) });
    }
    send(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const current = () => keys.at(-1)!;
  const payload = (claims: Record<string, unknown>): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    const merged: Record<string, unknown> = { iss: url, aud: audience, sub: `user-${randomUUID()}`, iat: now, exp: now + 300, ...claims };
    return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
  };
  const signWith = (key: Pick<SigningKey, 'alg' | 'privateKey'>, kid: string, claims: Record<string, unknown>) =>
    new SignJWT(payload(claims)).setProtectedHeader({ alg: key.alg, kid, typ: 'JWT' }).sign(key.privateKey);

  return {
    url,
    audience,
    requests,
    get currentKid() {
      return current().kid;
    },
    sign(claims = {}, options = {}) {
      return signWith(current(), options.kid ?? current().kid, claims);
    },
    async signWithUnpublishedKey(claims = {}, options = {}) {
      const stranger = await newKey('RS256');
      return signWith(stranger, options.kid ?? stranger.kid, claims);
    },
    signWithSecret(claims, secret) {
      return new SignJWT(payload(claims)).setProtectedHeader({ alg: 'HS256', kid: current().kid, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
    },
    unsigned(claims = {}) {
      const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
      return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload(claims))}.`;
    },
    async rotate(alg = 'RS256') {
      const key = await newKey(alg);
      keys.push(key);
      return key.kid;
    },
    dropOldKeys() {
      keys = [current()];
    },
    setOutage(down) {
      outage = down;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
