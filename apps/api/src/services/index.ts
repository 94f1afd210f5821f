import { createApiKeyService } from './api-keys';
import type { ServiceDeps } from './deps';
import { createMemoryService } from './memory';
import { createOrgService } from './orgs';
import { createSystemService } from './system';

export type Services = ReturnType<typeof createServices>;

export function createServices(deps: ServiceDeps) {
  const apiKeys = createApiKeyService(deps);
  return {
    apiKeys,
    orgs: createOrgService(deps, apiKeys),
    memory: createMemoryService(deps),
    system: createSystemService(deps),
  };
}
