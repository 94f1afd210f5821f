import type { Archiver } from '../archive/sealer';
import type { ObjectStore } from '../archive/object-store';
import { createHookIngestService } from '../hooks/ingest';
import type { Sanitizer } from '../hooks/sanitize';
import type { Authenticator } from '../auth/principal';
import { createApiKeyService } from './api-keys';
import { createAuditService } from './audit';
import { createAuthentication } from './authentication';
import type { ServiceDeps } from './deps';
import { createMemoryService } from './memory';
import { createMemoryRedaction } from './memory-redaction';
import { createOrgService } from './orgs';
import { createSystemService } from './system';
import { createTeamService } from './team';
import { createWorkstreamService } from './workstreams';

export type Services = ReturnType<typeof createServices>;

export interface ArchiveDeps {
  store: ObjectStore;
  archiver: Archiver;
  sanitizer: Sanitizer;
}

export function createServices(deps: ServiceDeps, archive: ArchiveDeps, oidc: Authenticator | null = null) {
  const apiKeys = createApiKeyService(deps);
  const memory = createMemoryService(deps, createMemoryRedaction(deps.db, archive.sanitizer));
  return {
    apiKeys,
    authentication: createAuthentication(apiKeys, oidc),
    orgs: createOrgService(deps, apiKeys),
    memory,
    system: createSystemService(deps),
    team: createTeamService(deps, archive.archiver),
    audit: createAuditService(deps),
    workstreams: createWorkstreamService(deps, archive, memory),
    hooks: createHookIngestService({ ...deps, sanitizer: archive.sanitizer, onSealNeeded: () => archive.archiver.wake() }),
  };
}
