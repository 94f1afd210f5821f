import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { RECALL_LIMITS } from '../../limits';
import { boundedText } from '../memory/schemas';
import { ApiKeyScopes, IssuedApiKeySchema, toIssuedApiKeyResponse } from './schemas';

export const CreateApiKeyBody = z
  .object({
    name: boundedText(1, 100).openapi({ description: 'What the key is for, 1–100 characters.' }),
    scopes: ApiKeyScopes.optional().openapi({ description: "A subset of the calling key's scopes (default: all of them)." }),
    recall_budget_chars: z
      .number()
      .int()
      .min(RECALL_LIMITS.minBudgetChars)
      .max(RECALL_LIMITS.maxBudgetChars)
      .nullable()
      .optional()
      .openapi({
        description: `Characters a recall (postRecall) made with this key may inject, ${RECALL_LIMITS.minBudgetChars}–${RECALL_LIMITS.maxBudgetChars}; default ${RECALL_LIMITS.defaultBudgetChars}.`,
      }),
  })
  .openapi('CreateApiKey');

export const postApiKeyRoute = authedRoute(['keys:manage'], {
  method: 'post',
  path: '/v1/api-keys',
  operationId: 'postApiKey',
  tags: ['API keys'],
  summary: 'Create an API key',
  description: 'A new key for yourself, with at most the scopes of the key making the call. The secret is shown once.',
  request: { body: { required: true, content: { 'application/json': { schema: CreateApiKeyBody } } } },
  responses: {
    201: { description: 'The new key, with its secret.', content: { 'application/json': { schema: IssuedApiKeySchema } } },
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

export function registerPostApiKey(app: ApiApp) {
  app.openapi(postApiKeyRoute, async (c) => {
    const { recall_budget_chars: recallBudgetChars, ...input } = c.req.valid('json');
    const issued = await c.get('services').apiKeys.create(c.get('principal'), { ...input, recallBudgetChars });
    return c.json(toIssuedApiKeyResponse(issued), 201);
  });
}
