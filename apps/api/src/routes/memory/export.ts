import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { ScopeFilterParam, toMemoryResponse } from './schemas';
import { NDJSON_TYPE } from './transfer-format';

export const getMemoryExportRoute = authedRoute(['memory:read'], {
  method: 'get',
  path: '/v1/memory/export',
  operationId: 'getMemoryExport',
  tags: ['Memory'],
  summary: 'Export memories as NDJSON',
  description:
    "Streams the memories you can read — yours, your org's shared ones, or both (`scope`) — newest first, one JSON object per line, each exactly as getMemoryById answers it (contexts included). `POST /v1/memory/import` takes the file back. A member's private memories are only ever in their own export. Audited as `memory.export` once the last line is sent. An error after the first line ends the stream without its last chunk, so a cut-off export is never mistaken for a whole one.",
  // A file for people and programs, not a tool for a model.
  'x-mcp': false,
  request: { query: z.object({ scope: ScopeFilterParam }) },
  responses: {
    200: {
      description: 'NDJSON, streamed: one `Memory` per line.',
      headers: { 'Content-Disposition': { description: '`attachment; filename="memories.ndjson"`', schema: { type: 'string' } } },
      content: { [NDJSON_TYPE]: { schema: z.string() } },
    },
    ...problemResponses(400, 401, 403),
  },
});

export function registerGetMemoryExport(app: ApiApp) {
  app.openapi(getMemoryExportRoute, (c) => {
    const pages = c.get('services').memoryTransfer.exportPages(c.get('principal'), c.req.valid('query').scope);
    const encoder = new TextEncoder();
    // Pulled: the next page is read from the database only when the client has taken the last.
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await pages.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(next.value.map((memory) => `${JSON.stringify(toMemoryResponse(memory))}\n`).join('')));
      },
      async cancel() {
        await pages.return(undefined);
      },
    });
    // zod-openapi types `application/x-ndjson` as if it were JSON (it ends in "json");
    // the response is exactly what the route declares.
    return c.body(stream, 200, { 'Content-Type': NDJSON_TYPE, 'Content-Disposition': 'attachment; filename="memories.ndjson"' }) as never;
  });
}
