import { z } from '@hono/zod-openapi';
import { API_KEY_SCOPES, ROLES } from '@memory-bank/db';
import type { ConnectedApp } from '../../services/oauth-grants';

export const GrantSchema = z
  .object({
    id: z.string().openapi({ example: 'Xk3v…' }),
    client_id: z.string().openapi({ example: 'https://claude.ai/oauth/mcp-oauth-client-metadata' }),
    client_name: z.string().nullable().openapi({ description: 'The name the client gave itself, as the consent screen showed it.' }),
    scopes: z.array(z.string()),
    created_at: z.string().openapi({ format: 'date-time' }),
    last_used_at: z.string().nullable().openapi({ format: 'date-time', description: 'The last request with one of its access tokens (to the minute).' }),
    user_id: z.string(),
  })
  .openapi('OAuthGrant');

export const toGrantResponse = (grant: ConnectedApp): z.infer<typeof GrantSchema> => ({
  id: grant.id,
  client_id: grant.clientId,
  client_name: grant.clientName,
  scopes: grant.scopes,
  created_at: grant.createdAt.toISOString(),
  last_used_at: grant.lastUsedAt?.toISOString() ?? null,
  user_id: grant.userId,
});

export const ConsentRequestSchema = z
  .object({
    client: z.object({
      client_id: z.string(),
      client_name: z.string().nullable(),
      client_uri: z.string().nullable(),
      redirect_host: z.string().openapi({ description: 'The host the person is sent back to.' }),
      redirect_host_differs: z.boolean().openapi({ description: "Whether that host differs from the client's own (its client id's or client_uri's host)." }),
    }),
    org: z.object({ id: z.string(), name: z.string() }),
    user: z.object({ id: z.string(), email: z.string().nullable(), role: z.enum(ROLES) }),
    scopes: z.array(z.object({ scope: z.enum(API_KEY_SCOPES), description: z.string() })),
    remembered: z.boolean().openapi({ description: 'The person already allowed this client these scopes.' }),
  })
  .openapi('OAuthConsentRequest');

export const InteractionParams = z.object({
  uid: z.string().min(1).max(100).openapi({ param: { name: 'uid', in: 'path' }, example: 'dG9rZW4' }),
});
