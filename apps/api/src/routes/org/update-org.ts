import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { OrgSchema, toOrgResponse } from './schemas';

export const UpdateOrgBody = z
  .object({
    redact_memory_secrets: z.boolean().openapi({
      description:
        '`false`: memories are stored as sent, secrets included (hook payloads are always redacted). `true` (the default): secrets in memory content and contexts are redacted on save and update.',
    }),
  })
  .strict()
  .openapi('UpdateOrg');

export const patchOrgRoute = authedRoute(['admin'], {
  method: 'patch',
  path: '/v1/org',
  operationId: 'patchOrg',
  tags: ['Org'],
  summary: 'Change org settings',
  description: 'Changes org settings. Admins and owners. A change is written to the audit trail (`org.update`).',
  request: { body: { required: true, content: { 'application/json': { schema: UpdateOrgBody } } } },
  responses: {
    200: { description: 'The org with its settings.', content: { 'application/json': { schema: OrgSchema } } },
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

export function registerPatchOrg(app: ApiApp) {
  app.openapi(patchOrgRoute, async (c) => {
    const body = c.req.valid('json');
    const org = await c.get('services').orgs.updateSettings(c.get('principal'), { redactMemorySecrets: body.redact_memory_secrets });
    return c.json(toOrgResponse(org), 200);
  });
}
