import type { Role } from './schema';

/**
 * Who is asking. Every helper that reads or writes tenant data takes one and puts it in
 * the WHERE clause: a row outside it is, to the caller, a row that does not exist.
 */
export interface OwnerScope {
  readonly orgId: string;
  readonly userId: string;
  readonly role: Role;
}

/** The part of an owner scope that org-wide helpers need. */
export type OrgScope = Pick<OwnerScope, 'orgId'>;

export function isOrgAdmin(scope: OwnerScope): boolean {
  return scope.role === 'owner' || scope.role === 'admin';
}
