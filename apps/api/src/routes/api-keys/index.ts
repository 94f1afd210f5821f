import type { ApiApp } from '../../http/env';
import { registerPostApiKey } from './create';
import { registerGetApiKeys } from './list';
import { registerDeleteApiKeyById } from './revoke';

export function registerApiKeyRoutes(app: ApiApp) {
  registerPostApiKey(app);
  registerGetApiKeys(app);
  registerDeleteApiKeyById(app);
}
