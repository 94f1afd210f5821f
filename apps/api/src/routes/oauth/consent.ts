import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { browserExchange as browserOf } from '../../oauth/routes';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { ConsentRequestSchema, InteractionParams } from './schemas';

const CONSENT_PATH = '/oauth/interaction/{uid}/consent';

export const getOAuthConsentRoute = authedRoute([], {
  method: 'get',
  path: CONSENT_PATH,
  operationId: 'getOAuthConsent',
  tags: ['OAuth'],
  summary: 'What an app asks for',
  description:
    "For the console's consent screen: the client, org and scopes of the authorization request this browser started (its interaction cookie names it). 404 when it expired or belongs to another browser.",
  request: { params: InteractionParams },
  responses: {
    200: { description: 'The authorization request.', content: { 'application/json': { schema: ConsentRequestSchema } } },
    ...problemResponses(401, 403, 404),
  },
});

export const postOAuthConsentRoute = authedRoute([], {
  method: 'post',
  path: CONSENT_PATH,
  operationId: 'postOAuthConsent',
  tags: ['OAuth'],
  summary: 'Allow or deny an app',
  description:
    'Allows (a grant of the asked scopes your credential holds, remembered for this app) or denies (`access_denied` to the app). Answers where the browser goes next.',
  request: {
    params: InteractionParams,
    body: { required: true, content: { 'application/json': { schema: z.object({ decision: z.enum(['allow', 'deny']) }) } } },
  },
  responses: {
    200: { description: 'Where to send the browser.', content: { 'application/json': { schema: z.object({ redirect_to: z.string() }) } } },
    ...problemResponses(400, 401, 403, 404),
  },
});

export function registerOAuthConsentRoutes(app: ApiApp) {
  app.openapi(getOAuthConsentRoute, async (c) => {
    const request = await c.get('oauth').consent.details(browserOf(c), c.req.valid('param').uid, c.get('principal'));
    return c.json(
      {
        client: {
          client_id: request.client.clientId,
          client_name: request.client.clientName,
          client_uri: request.client.clientUri,
          redirect_host: request.client.redirectHost,
          redirect_host_differs: request.client.redirectHostDiffers,
        },
        org: request.org,
        user: request.user,
        scopes: request.scopes,
        remembered: request.remembered,
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  });
  app.openapi(postOAuthConsentRoute, async (c) => {
    const redirectTo = await c.get('oauth').consent.decide(browserOf(c), c.req.valid('param').uid, c.get('principal'), c.req.valid('json').decision);
    return c.json({ redirect_to: redirectTo }, 200, { 'Cache-Control': 'no-store' });
  });
}
