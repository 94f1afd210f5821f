import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { OrgSchema, toOrgResponse } from './schemas';

export const getOrgRoute = authedRoute(['admin'], {
  method: 'get',
  path: '/v1/org',
  operationId: 'getOrg',
  tags: ['Org'],
  summary: 'Get your org and its settings',
  description: 'The org and its settings. Admins and owners.',
  responses: {
    200: { description: 'The org.', content: { 'application/json': { schema: OrgSchema } } },
    ...problemResponses(401, 403),
  },
});

export function registerGetOrg(app: ApiApp) {
  app.openapi(getOrgRoute, async (c) => {
    return c.json(toOrgResponse(await c.get('services').orgs.get(c.get('principal'))), 200);
  });
}
