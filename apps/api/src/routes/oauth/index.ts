import type { ApiApp } from '../../http/env';
import { registerOAuthConsentRoutes } from './consent';
import { registerDeleteOAuthGrantById } from './grants-revoke';
import { registerGetOAuthGrants } from './grants-list';

export function registerOAuthApiRoutes(app: ApiApp) {
  registerGetOAuthGrants(app);
  registerDeleteOAuthGrantById(app);
  registerOAuthConsentRoutes(app);
}
