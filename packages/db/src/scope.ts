import type { OrgRow, Role, UserRow } from './schema';

/*
 * Scopes are branded: only this module makes them, and only the system entry point
 * (`@memory-bank/db/system`, used by authentication and the operator's tools) hands its
 * makers out. Tenant code receives a scope from authentication and passes it on; an object
 * literal `{ orgId }` does not type-check where a scope is asked for.
 */
declare const orgScopeBrand: unique symbol;
declare const ownerScopeBrand: unique symbol;

/** An org whose row exists, as org-wide helpers (members, audit, purges) take it. */
export interface OrgScope {
  readonly orgId: string;
  readonly [orgScopeBrand]: true;
}

/**
 * Who is asking. Every helper that reads or writes tenant data takes one and puts it in
 * the WHERE clause: a row outside it is, to the caller, a row that does not exist.
 */
export interface OwnerScope extends OrgScope {
  readonly userId: string;
  readonly role: Role;
  readonly [ownerScopeBrand]: true;
}

export function isOrgAdmin(scope: OwnerScope): boolean {
  return scope.role === 'owner' || scope.role === 'admin';
}

/** The scope of a user whose row was just loaded by a credential lookup (system entry point only). */
export function ownerScopeOf(user: Pick<UserRow, 'orgId' | 'id' | 'role'>): OwnerScope {
  return { orgId: user.orgId, userId: user.id, role: user.role } as OwnerScope;
}

/** The scope of an org whose row was just loaded (system entry point only). */
export function orgScopeOf(org: Pick<OrgRow, 'id'>): OrgScope {
  return { orgId: org.id } as OrgScope;
}
