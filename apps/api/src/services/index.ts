import type { Archiver } from '../archive/sealer';
import type { ObjectStore } from '../archive/object-store';
import type { Sanitizer } from '../hooks/sanitize';
import type { HookEventsRecorded } from './hooks';
import type { Authenticator } from '../auth/principal';
import { createApiKeyService } from './api-keys';
import { createAuditService } from './audit';
import { createAuthentication, type KeyCache } from './authentication';
import type { ServiceDeps } from './deps';
import { createHookIngestService } from './hooks';
import { createMembersService } from './members';
import { createMemoryService, type MeaningSearch } from './memory';
import { createMemoryRedaction } from './memory-redaction';
import { createMemoryTransferService } from './memory-transfer';
import { createMemoryUseService } from './memory-use';
import { createOperatorService } from './operator';
import { createOAuthGrantService } from './oauth-grants';
import { createOrgService } from './orgs';
import { createRecallService } from './recall';
import { createSystemService } from './system';
import { createWorkstreamService } from './workstreams';
import { loadSpellingDictionary } from '../spelling';

export type Services = ReturnType<typeof createServices>;

export interface ArchiveDeps {
  store: ObjectStore;
  archiver: Archiver;
  sanitizer: Sanitizer;
  /** Sees the counts of each append to the ledger (metrics). */
  onHookEventsRecorded?: (recorded: HookEventsRecorded) => void;
}

export function createServices(deps: ServiceDeps, archive: ArchiveDeps, keys: KeyCache, oidc: Authenticator | null = null, meaning: MeaningSearch | null = null) {
  const apiKeys = createApiKeyService(deps);
  const memory = createMemoryService(deps, createMemoryRedaction(archive.sanitizer), { spelling: loadSpellingDictionary, meaning });
  const memoryUse = createMemoryUseService(deps);
  const members = createMembersService(deps, apiKeys, archive.archiver);
  const hooks = createHookIngestService({
    ...deps,
    sanitizer: archive.sanitizer,
    onSealNeeded: () => archive.archiver.wake(),
    ...(archive.onHookEventsRecorded ? { onRecorded: archive.onHookEventsRecorded } : {}),
  });
  return {
    apiKeys,
    authentication: createAuthentication(deps, keys, oidc),
    members,
    orgs: createOrgService(deps),
    oauthGrants: createOAuthGrantService(deps),
    operator: createOperatorService(deps, { apiKeys, members, archiver: archive.archiver }),
    memory,
    memoryTransfer: createMemoryTransferService(deps, memory),
    memoryUse,
    system: createSystemService(deps),
    audit: createAuditService(deps),
    workstreams: createWorkstreamService(deps, archive, memory),
    hooks,
    recall: createRecallService(deps, { memory, hooks, memoryUse }),
  };
}
