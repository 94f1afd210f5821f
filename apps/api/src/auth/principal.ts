import type { ApiKeyScope, OwnerScope } from '@memory-bank/db';

/** An authenticated caller: the owner scope every query takes, plus what the key may do. */
export interface Principal extends OwnerScope {
  readonly keyId: string;
  readonly scopes: readonly ApiKeyScope[];
}

/** The owner scope of a principal, as the db helpers take it. */
export function ownerScope(principal: Principal): OwnerScope {
  return { orgId: principal.orgId, userId: principal.userId, role: principal.role };
}
