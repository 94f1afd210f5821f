import type { ApiApp } from '../../http/env';
import { registerPostHookRecall } from './hook';
import { registerPostRecall } from './recall';

export function registerRecallRoutes(app: ApiApp) {
  registerPostRecall(app);
  registerPostHookRecall(app);
}
