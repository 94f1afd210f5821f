import type { ApiApp } from '../../http/env';
import { registerPostMemory } from './create';
import { registerDeleteMemoryById } from './delete';
import { registerGetMemoryExport } from './export';
import { registerGetMemoryById } from './get';
import { registerGetMemoryHistory } from './history';
import { registerPostMemoryImport } from './import';
import { registerGetMemory } from './list';
import { registerGetMemorySearch } from './search';
import { registerPatchMemoryById } from './update';

export function registerMemoryRoutes(app: ApiApp) {
  registerPostMemory(app);
  registerGetMemory(app);
  // Before /v1/memory/{id}, so "search" and "export" are not taken for an id.
  registerGetMemorySearch(app);
  registerGetMemoryExport(app);
  registerPostMemoryImport(app);
  registerGetMemoryById(app);
  registerGetMemoryHistory(app);
  registerPatchMemoryById(app);
  registerDeleteMemoryById(app);
}
