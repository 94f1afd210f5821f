import type { ApiApp } from '../../http/env';
import { registerPostOrgMember } from './add-member';
import { registerPatchOrgMemberById } from './change-role';
import { registerGetOrg } from './get-org';
import { registerGetOrgMembers } from './list-members';
import { registerDeleteOrgMemberById } from './remove-member';
import { registerPatchOrg } from './update-org';

export function registerOrgRoutes(app: ApiApp) {
  registerGetOrg(app);
  registerPatchOrg(app);
  registerPostOrgMember(app);
  registerGetOrgMembers(app);
  registerPatchOrgMemberById(app);
  registerDeleteOrgMemberById(app);
}
