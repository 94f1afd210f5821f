import type { ApiApp } from '../../http/env';
import { registerPostOrgMember } from './add-member';

export function registerOrgRoutes(app: ApiApp) {
  registerPostOrgMember(app);
}
