import { z } from '@hono/zod-openapi';
import { API_KEY_SCOPES, type ApiKeyRecord } from '@memory-bank/db';
import type { IssuedApiKey } from '../../services/api-keys';

export const ApiKeyScopes = z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length);

export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: 'key_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
    name: z.string(),
    prefix: z.string().openapi({ description: 'The first characters of the key, to recognise it.', example: 'mbk_Ab3dE9xQ' }),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    recall_budget_chars: z.number().int().nullable().openapi({ description: 'Characters a recall made with this key may inject; null: the default.' }),
    created_at: z.string().openapi({ format: 'date-time' }),
    last_used_at: z.string().nullable().openapi({ format: 'date-time', description: 'Updated at most once a minute.' }),
    revoked_at: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('ApiKey');

export const IssuedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({ description: 'The secret. Shown only in this response: store it now.', example: 'mbk_…' }),
}).openapi('IssuedApiKey');

export function toApiKeyResponse(record: ApiKeyRecord): z.infer<typeof ApiKeySchema> {
  return {
    id: record.id,
    name: record.name,
    prefix: record.displayPrefix,
    scopes: record.scopes,
    recall_budget_chars: record.recallBudgetChars,
    created_at: record.createdAt.toISOString(),
    last_used_at: record.lastUsedAt?.toISOString() ?? null,
    revoked_at: record.revokedAt?.toISOString() ?? null,
  };
}

export function toIssuedApiKeyResponse(issued: IssuedApiKey): z.infer<typeof IssuedApiKeySchema> {
  return { ...toApiKeyResponse(issued.record), key: issued.key };
}
