import type { ApiApp } from '../../http/env';
import { registerGetWorkstreamActions } from './actions';
import { registerDeleteWorkstreamById } from './delete';
import { registerGetWorkstreamEvents } from './events';
import { registerGetWorkstreamById } from './get';
import { registerGetWorkstreams } from './list';
import { registerGetWorkstreamRaw } from './raw';
import { registerPostWorkstreamEventRemember } from './remember';
import { registerGetWorkstreamsSearch } from './search';

export function registerWorkstreamRoutes(app: ApiApp) {
  registerGetWorkstreams(app);
  // Before /v1/workstreams/{id}, so "search" is not taken for an id.
  registerGetWorkstreamsSearch(app);
  registerGetWorkstreamById(app);
  registerGetWorkstreamEvents(app);
  registerGetWorkstreamActions(app);
  registerGetWorkstreamRaw(app);
  registerPostWorkstreamEventRemember(app);
  registerDeleteWorkstreamById(app);
}
