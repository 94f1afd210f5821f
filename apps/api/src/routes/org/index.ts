import type { ApiApp } from '../../http/env';
import { registerPostOrgMember } from './add-member';
import { registerGetOrgMembers } from './list-members';
import { registerDeleteOrgMemberById } from './remove-member';

export function registerOrgRoutes(app: ApiApp) {
  registerPostOrgMember(app);
  registerGetOrgMembers(app);
  registerDeleteOrgMemberById(app);
}
