import type { ApiApp } from '../../http/env';
import { registerGetAdminAudit } from './audit';
import { registerGetAdminMemberMemories } from './member-memories';
import { registerDeleteAdminMemberMemories } from './purge-member';

export function registerAdminRoutes(app: ApiApp) {
  registerGetAdminMemberMemories(app);
  registerDeleteAdminMemberMemories(app);
  registerGetAdminAudit(app);
}
