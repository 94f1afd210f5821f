import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { RETENTION_LIMITS } from '../../limits';
import { OrgSchema, toOrgResponse } from './schemas';

/** Whole days from 1 to RETENTION_LIMITS.maxDays, or null: kept until deleted. */
const RetentionDays = z
  .number()
  .int({ message: 'Must be a whole number of days' })
  .min(1, { message: 'Must be at least 1 day (null keeps everything)' })
  .max(RETENTION_LIMITS.maxDays, { message: `Must be at most ${RETENTION_LIMITS.maxDays} days` })
  .nullable()
  .optional();

export const UpdateOrgBody = z
  .object({
    redact_memory_secrets: z.boolean().optional().openapi({
      description:
        '`false`: memories are stored as sent, secrets included (hook payloads are always redacted). `true` (the default): secrets in memory content and contexts are redacted on save and update.',
    }),
    dedupe_memories: z.boolean().optional().openapi({
      description:
        '`true` (the default): a save whose content equals a live memory of the same owner and scope adds to that memory and answers it with `duplicate: true`. `false`: every save stores a memory.',
    }),
    memory_retention_days: RetentionDays.openapi({
      description: `Memories not updated for this many days are deleted (pinned ones are kept), within a minute of becoming due. 1–${RETENTION_LIMITS.maxDays}, or \`null\` to keep them until deleted.`,
    }),
    workstream_retention_days: RetentionDays.openapi({
      description: `Workstream events received more than this many days ago leave the ledger, and their archived segments the object store, within a minute of becoming due. 1–${RETENTION_LIMITS.maxDays}, or \`null\` to keep them until deleted.`,
    }),
  })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'Name at least one setting to change' })
  .openapi('UpdateOrg', { minProperties: 1 });

export const patchOrgRoute = authedRoute(['admin'], {
  method: 'patch',
  path: '/v1/org',
  operationId: 'patchOrg',
  tags: ['Org'],
  summary: 'Change org settings',
  description:
    'Changes the settings named in the body (at least one; the others keep their values). Admins and owners. A change is written to the audit trail (`org.update`, the new values in `counts`).',
  request: { body: { required: true, content: { 'application/json': { schema: UpdateOrgBody } } } },
  responses: {
    200: { description: 'The org with its settings.', content: { 'application/json': { schema: OrgSchema } } },
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

export function registerPatchOrg(app: ApiApp) {
  app.openapi(patchOrgRoute, async (c) => {
    const body = c.req.valid('json');
    const org = await c.get('services').orgs.updateSettings(c.get('principal'), {
      ...(body.redact_memory_secrets !== undefined && { redactMemorySecrets: body.redact_memory_secrets }),
      ...(body.dedupe_memories !== undefined && { dedupeMemories: body.dedupe_memories }),
      ...(body.memory_retention_days !== undefined && { memoryRetentionDays: body.memory_retention_days }),
      ...(body.workstream_retention_days !== undefined && { workstreamRetentionDays: body.workstream_retention_days }),
    });
    return c.json(toOrgResponse(org), 200);
  });
}
