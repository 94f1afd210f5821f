import type { ApiKeyScope, Role } from '@memory-bank/db';
import type { Services } from '../../src/services';
import { client, type Client } from './http';

export interface TestUser {
  userId: string;
  email: string;
  orgId: string;
  role: Role;
  key: string;
  keyId: string;
  api: Client;
}

export interface TestTenant {
  orgId: string;
  owner: TestUser;
  addMember(role?: Role): Promise<TestUser>;
  /** Another key of `user` with exactly `scopes`. */
  keyWithScopes(user: TestUser, scopes: ApiKeyScope[]): Promise<TestUser>;
}

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${counter++}@example.test`;

/** A fresh org with its owner, made through the same services the API uses. */
export async function createTenant(services: Services, baseUrl: string, name = 'Test org'): Promise<TestTenant> {
  const provisioned = await services.operator.provision({ name, ownerEmail: uniqueEmail('owner') }, 'test-setup');
  const orgId = provisioned.org.id;
  const asUser = (userId: string, email: string, role: Role, key: string, keyId: string): TestUser => ({
    userId,
    email,
    orgId,
    role,
    key,
    keyId,
    api: client(baseUrl, key),
  });
  const owner = asUser(provisioned.user.id, provisioned.user.email, 'owner', provisioned.apiKey.key, provisioned.apiKey.record.id);
  return {
    orgId,
    owner,
    async addMember(role: Role = 'member') {
      const added = await services.operator.addMember(orgId, { email: uniqueEmail(role), role }, 'test-setup');
      return asUser(added.user.id, added.user.email, role, added.apiKey.key, added.apiKey.record.id);
    },
    async keyWithScopes(user, scopes) {
      const issued = await services.operator.issueKey(user.userId, { name: `scoped ${scopes.join(' ')}`, scopes }, 'test-setup');
      return asUser(user.userId, user.email, user.role, issued.key, issued.record.id);
    },
  };
}
