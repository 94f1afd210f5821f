import { z } from '@hono/zod-openapi';
import { MEMORY_SCOPES } from '@memory-bank/db';
import { AppError } from '../../errors';
import type { ApiApp } from '../../http/env';
import { ndjsonLines } from '../../http/ndjson';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { BODY_LIMITS, TRANSFER_LIMITS } from '../../limits';
import type { ImportSummary as ImportSummaryRecord } from '../../services/memory-transfer';
import { importLineOf, NDJSON_TYPE, NDJSON_TYPES } from './transfer-format';

const ImportFailure = z
  .object({
    line: z.number().int().openapi({ description: 'Line number, from 1 (blank lines count).' }),
    code: z.string().openapi({ description: 'The problem code a save of this line would have answered, e.g. `validation_failed`, `payload_too_large`, `forbidden`, `quota_exceeded`.' }),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('MemoryImportFailure');

const ImportSummary = z
  .object({
    imported: z.number().int().openapi({ description: 'Lines saved as new memories.' }),
    skipped: z.number().int().openapi({ description: 'Lines an earlier import already saved (nothing stored again).' }),
    failed: z.number().int().openapi({ description: 'Lines refused; nothing of them was stored.' }),
    skipped_lines: z.array(z.number().int()).openapi({ description: `The skipped lines' numbers (the first ${TRANSFER_LIMITS.reportedLines}).` }),
    failures: z.array(ImportFailure).openapi({ description: `Why each failed line was refused (the first ${TRANSFER_LIMITS.reportedLines}).` }),
    complete: z.boolean().openapi({
      description: 'False when the import stopped at its time limit before the end of the body: send the same file again; the lines already imported are skipped.',
    }),
    last_line: z.number().int().openapi({ description: 'The last line read.' }),
  })
  .openapi('MemoryImportSummary');

/** The summary on the wire (the route's answer, the CLI's output). */
export function toImportSummaryResponse(summary: ImportSummaryRecord): z.infer<typeof ImportSummary> {
  return {
    imported: summary.imported,
    skipped: summary.skipped,
    failed: summary.failed,
    skipped_lines: summary.skippedLines,
    failures: summary.failures,
    complete: summary.complete,
    last_line: summary.lastLine,
  };
}

export const postMemoryImportRoute = authedRoute(['memory:write'], {
  method: 'post',
  path: '/v1/memory/import',
  operationId: 'postMemoryImport',
  tags: ['Memory'],
  summary: 'Import memories from NDJSON',
  description: `Saves each line of an NDJSON body as a memory, as \`POST /v1/memory\` would (same schema and limits, secrets redacted, the org's quota), reading the body as it arrives. Lines may be this API's export lines or save bodies, mem0 memory objects (\`memory\` → content, \`categories\` → tags) or supermemory documents (\`content\`). A bad line is reported by number and nothing of it is stored; the others are saved. A line asking for a save (text, tags, contexts, scope) that an earlier import by the same user already made is skipped, however long ago, so a file can be sent again safely; lines are saved in transactions of up to ${TRANSFER_LIMITS.importChunkLines}. \`scope\` stores every line with that scope instead of its own. Bodies up to ${TRANSFER_LIMITS.importBytes} bytes, lines up to ${BODY_LIMITS.requestBytes}. Audited as \`memory.import\`.`,
  'x-mcp': false,
  request: {
    query: z.object({
      scope: z.enum(MEMORY_SCOPES).optional().openapi({ description: "Store every line with this scope (`org`: admins and owners only); default each line's own (`user` when it has none)." }),
    }),
    body: { required: true, content: { [NDJSON_TYPE]: { schema: z.string().openapi({ description: 'One save per line.' }) } } },
  },
  responses: {
    200: { description: 'What became of each line.', content: { 'application/json': { schema: ImportSummary } } },
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

export function registerPostMemoryImport(app: ApiApp) {
  app.openapi(postMemoryImportRoute, async (c) => {
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!NDJSON_TYPES.includes(type)) throw new AppError('unsupported_media_type', `Send the lines as ${NDJSON_TYPES.join(' or ')}`);
    const body = c.req.raw.body;
    if (!body) throw new AppError('bad_request', 'The body is empty: send one memory per line');
    async function* lines() {
      for await (const line of ndjsonLines(body!, { lineBytes: BODY_LIMITS.requestBytes, bodyBytes: TRANSFER_LIMITS.importBytes })) yield importLineOf(line);
    }
    // Answer before REQUEST_TIMEOUT_MS would: what was done is reported, the rest can be sent again.
    const signal = AbortSignal.timeout(Math.floor(c.get('config').REQUEST_TIMEOUT_MS * TRANSFER_LIMITS.importTimeShare));
    const summary = await c.get('services').memoryTransfer.import(c.get('principal'), lines(), { scope: c.req.valid('query').scope, signal });
    // Stopped early, the rest of the body is unread: it must not be parsed as a next request.
    if (!summary.complete) c.header('Connection', 'close');
    return c.json(toImportSummaryResponse(summary), 200);
  });
}
