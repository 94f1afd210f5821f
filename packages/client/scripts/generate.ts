import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { serviceOpenApiDocument } from './openapi-document';
import { GENERATED_FILES, renderClientSources } from './render';

// Regenerates the client's types from the service's OpenAPI document (in-process, no server).
const root = join(import.meta.dirname, '..');
const sources = await renderClientSources(await serviceOpenApiDocument());
for (const [name, file] of Object.entries(GENERATED_FILES)) {
  const path = join(root, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, sources[name as keyof typeof GENERATED_FILES]);
  console.log(`wrote packages/client/${file}`);
}
