import { isDuplicateKey, isId, type Database, type OidcIdentity, type OrgScope, type UserRow } from '@memory-bank/db';
import { findOrgById, findUserByOidcIdentity, orgScopeOf, ownerScopeOf } from '@memory-bank/db/system';
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../config';
import { AppError } from '../errors';
import { errorForLog } from '../logger';
import type { Clock } from '../clock';
import { defaultScopes, type Authenticator, type Principal } from './principal';

/** Asymmetric signatures only: a shared secret would let anyone holding it mint tokens. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Small: clocks under NTP agree to well within this; more would stretch every token's life. */
const CLOCK_TOLERANCE_SECONDS = 10;
const FETCH_TIMEOUT_MS = 5_000;
const RETRY_AFTER_SECONDS = 5;
/** users.oidc_issuer / oidc_subject are varchar(255). */
const MAX_IDENTITY_LENGTH = 255;

const DiscoveryDocument = z.object({ issuer: z.string(), jwks_uri: z.string() });

/**
 * First sign-in of an identity in an org: links the org's pre-added member with this
 * verified email, or creates a member (services/oidc-enrolment.ts). 'retry' when a
 * concurrent sign-in changed the rows it looked at.
 */
export interface OidcEnrolment {
  enrol(org: OrgScope, identity: OidcIdentity, verifiedEmail: string | null, requestId: string): Promise<UserRow | 'retry' | null>;
}

export interface OidcDeps {
  db: Database;
  config: Config & { OIDC_ISSUER: string; OIDC_AUDIENCE: string };
  clock: Clock;
  logger: Logger;
  enrolment: OidcEnrolment;
}

/** The provider (discovery document or key set) could not be reached or made no sense. */
class IssuerUnavailable extends Error {
  override name = 'IssuerUnavailable';
}

/** Where the provider publishes its keys, from its discovery document (OpenID Connect Discovery 1.0 §4). */
async function discoverJwksUri(issuer: string): Promise<URL> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let body: unknown;
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) throw new IssuerUnavailable(`OIDC discovery answered ${response.status}`);
    body = await response.json();
  } catch (error) {
    throw error instanceof IssuerUnavailable ? error : new IssuerUnavailable('OIDC discovery failed', { cause: error });
  }
  const document = DiscoveryDocument.safeParse(body);
  if (!document.success) throw new IssuerUnavailable('The OIDC discovery document has no issuer or jwks_uri');
  // §4.3: a document naming another issuer is not this issuer's (misconfiguration or spoofing).
  if (document.data.issuer !== issuer) {
    throw new IssuerUnavailable(`The OIDC discovery document names issuer ${document.data.issuer}, not OIDC_ISSUER`);
  }
  if (!URL.canParse(document.data.jwks_uri) || !/^https?:$/.test(new URL(document.data.jwks_uri).protocol)) {
    throw new IssuerUnavailable('The OIDC discovery document has an invalid jwks_uri');
  }
  return new URL(document.data.jwks_uri);
}

/**
 * Errors of the key set that say "could not get the keys" (network, timeout, a non-200 or
 * malformed answer), as opposed to "the token names no key we know" (→ 401).
 */
function isKeySetUnavailable(error: unknown): boolean {
  if (!(error instanceof errors.JOSEError)) return true;
  return error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error.code === errors.JOSEError.code;
}

/**
 * The email claim, lower-cased, only when the provider vouches for it (`email_verified`
 * true): an email a user can set freely must not make them a member an admin invited
 * (the "nOAuth" account takeover).
 */
function verifiedEmail(claims: JWTPayload): string | null {
  const { email, email_verified: verified } = claims;
  if (typeof email !== 'string' || (verified !== true && verified !== 'true')) return null;
  const normalised = email.trim().toLowerCase();
  return normalised.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(normalised) ? normalised : null;
}

/**
 * Accepts OpenID Connect tokens (JWTs) of the configured issuer and audience and maps
 * their identity to a user: by (iss, sub) once linked; on first sign-in, by the org claim
 * plus either a pre-added member with the same email (linked, keeping their role) or a new
 * `member`. Invalid tokens → null (401). The provider unreachable → 503 with Retry-After:
 * a valid token must not look revoked because the provider's keys could not be fetched.
 */
export function createOidcAuthenticator({ db, config, clock, logger, enrolment }: OidcDeps): Authenticator {
  const issuer = config.OIDC_ISSUER;
  let keySet: Promise<JWTVerifyGetKey> | undefined;

  /** Discovered once, lazily; a failed discovery is retried by the next request. */
  function remoteKeys(): Promise<JWTVerifyGetKey> {
    if (!keySet) {
      const attempt = discoverJwksUri(issuer).then((jwksUri) =>
        // Caches the keys; a token with an unknown `kid` refetches them (rotation), at most once per cooldown.
        createRemoteJWKSet(jwksUri, { cooldownDuration: config.OIDC_JWKS_COOLDOWN_MS, timeoutDuration: FETCH_TIMEOUT_MS }),
      );
      keySet = attempt;
      attempt.catch(() => {
        if (keySet === attempt) keySet = undefined;
      });
    }
    return keySet;
  }

  const keyFor: JWTVerifyGetKey = async (header, token) => {
    const keys = await remoteKeys();
    try {
      return await keys(header, token);
    } catch (error) {
      throw isKeySetUnavailable(error) ? new IssuerUnavailable('The OIDC key set could not be fetched', { cause: error }) : error;
    }
  };

  async function verify(token: string): Promise<(JWTPayload & { sub: string }) | null> {
    try {
      // Unverified peek: a token of another issuer never makes us fetch anything.
      if (decodeJwt(token).iss !== issuer) return null;
      const { payload } = await jwtVerify(token, keyFor, {
        issuer,
        audience: config.OIDC_AUDIENCE,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: clock.now(),
        requiredClaims: ['sub', 'exp'],
      });
      const sub = payload.sub;
      return sub && sub.length <= MAX_IDENTITY_LENGTH ? { ...payload, sub } : null;
    } catch (error) {
      if (error instanceof IssuerUnavailable) {
        throw new AppError('unavailable', 'The sign-in provider cannot be reached; retry shortly', { retryAfterSeconds: RETRY_AFTER_SECONDS, cause: error });
      }
      // Expected for bad tokens (jose errors); anything else is worth a look, but is still a 401.
      if (!(error instanceof errors.JOSEError)) logger.warn({ error: errorForLog(error) }, 'unexpected error verifying an OIDC token');
      return null;
    }
  }

  /** The user a verified identity signs in as, with their org's `redact_memory_secrets`. */
  async function resolveUser(identity: OidcIdentity, claims: JWTPayload, requestId: string, retried = false): Promise<{ user: UserRow; redactsMemorySecrets: boolean; dedupesMemories: boolean } | null> {
    const orgClaim = claims[config.OIDC_ORG_CLAIM];
    const linked = await findUserByOidcIdentity(db, identity);
    if (linked) {
      if (linked.removedAt) return null;
      // An identity belongs to one org; a token for another org is not this user's.
      if (orgClaim !== undefined && orgClaim !== linked.orgId) return null;
      const { redactMemorySecrets, dedupeMemories, ...user } = linked;
      return { user, redactsMemorySecrets: redactMemorySecrets, dedupesMemories: dedupeMemories };
    }
    const org = typeof orgClaim === 'string' && isId('org', orgClaim) ? await findOrgById(db, orgClaim) : null;
    if (!org) return null;
    let outcome: UserRow | 'retry' | null;
    try {
      outcome = await enrolment.enrol(orgScopeOf(org), identity, verifiedEmail(claims), requestId);
    } catch (error) {
      // Concurrent first sign-ins of one identity: one insert wins; the others use it.
      if (!isDuplicateKey(error)) throw error;
      outcome = 'retry';
    }
    if (outcome !== 'retry') return outcome && { user: outcome, redactsMemorySecrets: org.redactMemorySecrets, dedupesMemories: org.dedupeMemories };
    if (retried) {
      logger.warn({ org_id: orgClaim, oidc_iss: identity.issuer, oidc_sub: identity.subject }, 'OIDC sign-in refused: could not enrol the identity');
      return null;
    }
    return resolveUser(identity, claims, requestId, true);
  }

  return {
    async authenticate(token: string, requestId: string): Promise<Principal | null> {
      const claims = await verify(token);
      if (!claims) return null;
      const resolved = await resolveUser({ issuer, subject: claims.sub }, claims, requestId);
      if (!resolved) return null;
      const { user, redactsMemorySecrets, dedupesMemories } = resolved;
      return { scope: ownerScopeOf(user), via: 'oidc', keyId: null, scopes: defaultScopes(user.role), recallBudgetChars: null, redactsMemorySecrets, dedupesMemories, requestId };
    },
  };
}
