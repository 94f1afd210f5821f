import { API_KEY_SCOPES, isOrgAdmin, type ApiKeyScope, type OwnerScope, type Role } from '@memory-bank/db';
import { AppError } from '../errors';

/**
 * An authenticated caller: the owner scope every query takes (made only by
 * authentication), what the credential may do, and the request it is acting in (for the
 * audit trail).
 */
export interface Principal {
  readonly scope: OwnerScope;
  /** How the caller signed in: an API key (`keyId` set), an OpenID Connect token, an OAuth access token (/mcp/oauth only), or the operator acting for the user (CLI). */
  readonly via: 'api_key' | 'oidc' | 'oauth' | 'operator';
  readonly keyId: string | null;
  readonly scopes: readonly ApiKeyScope[];
  /** The recall budget of the API key, in characters; null: the default (OIDC sign-ins too). */
  readonly recallBudgetChars: number | null;
  /**
   * The org setting `redact_memory_secrets`, read with the credential (so it is as fresh as
   * the credential: see the key cache's window, docs/api.md#authentication).
   */
  readonly redactsMemorySecrets: boolean;
  /** The org setting `dedupe_memories`, read with the credential like `redactsMemorySecrets`. */
  readonly dedupesMemories: boolean;
  readonly requestId: string;
}

/**
 * Admin powers (org-shared memories, other members' data, the audit trail): an admin or
 * owner, signed in with a credential that carries the `admin` scope. With a key of fewer
 * scopes an admin acts as a member.
 */
export function hasAdminPowers(principal: Principal): boolean {
  return isOrgAdmin(principal.scope) && principal.scopes.includes('admin');
}

/** Turns a token into a principal, or null when the token is not valid (→ 401). */
export interface Authenticator {
  authenticate(token: string, requestId: string): Promise<Principal | null>;
}

/** The one admin check of every service: 403 unless the caller has admin powers. */
export function requireAdmin(principal: Principal, action: string): void {
  if (!hasAdminPowers(principal)) throw new AppError('forbidden', `Only org admins and owners, with the admin scope, can ${action}`);
}

/** The scopes a user of this role gets on keys made for them by default (and an OIDC sign-in always). */
export function defaultScopes(role: Role): ApiKeyScope[] {
  return role === 'member' ? API_KEY_SCOPES.filter((scope) => scope !== 'admin') : [...API_KEY_SCOPES];
}
