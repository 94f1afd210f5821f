import { z } from '@hono/zod-openapi';
import { AUDIT_ACTOR_TYPES, type AuditEventRow } from '@memory-bank/db';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { limitParam } from '../memory/schemas';

const AuditEventSchema = z
  .object({
    id: z.string(),
    action: z.string().openapi({ example: 'member.purge' }),
    actor: z.object({ type: z.enum(AUDIT_ACTOR_TYPES), user_id: z.string().nullable(), key_id: z.string().nullable() }),
    target: z.object({ type: z.string(), id: z.string().nullable() }),
    counts: z.record(z.string(), z.number()).nullable(),
    request_id: z.string(),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('AuditEvent', { description: 'Who did what to which ids, with counts — never content.' });

const DateTimeParam = z.iso.datetime({ offset: true }).optional();

export const getAdminAuditRoute = authedRoute(['admin'], {
  method: 'get',
  path: '/v1/admin/audit',
  operationId: 'getAdminAudit',
  tags: ['Admin'],
  summary: 'Read the audit trail',
  description:
    "Destructive admin actions, exports and imports of memories, key creation and revocation, and member changes in your org, newest first. Actions: org.create, org.update (a setting changed), member.add, member.remove, member.purge, member.role, memory.delete, memory.export, memory.import, api_key.create, api_key.revoke, oauth.grant (a person allowed a connected app), oauth.revoke (a connected app was revoked).",
  request: {
    query: z.object({
      limit: limitParam(100, 'Page size'),
      cursor: z.string().min(1).max(512).optional(),
      action: z.string().min(1).max(64).optional().openapi({ description: 'Only this action.' }),
      actor: z.string().min(1).max(64).optional().openapi({ description: 'Only actions by this user id.' }),
      since: DateTimeParam.openapi({ description: 'Only events at or after this RFC 3339 date-time.' }),
      until: DateTimeParam.openapi({ description: 'Only events before this RFC 3339 date-time (exclusive).' }),
    }).refine((query) => !query.since || !query.until || Date.parse(query.since) < Date.parse(query.until), {
      path: ['until'],
      message: 'until must be later than since',
    }),
  },
  responses: {
    200: {
      description: 'A page of audit events.',
      content: { 'application/json': { schema: z.object({ events: z.array(AuditEventSchema), next_cursor: z.string().nullable() }) } },
    },
    ...problemResponses(400, 401, 403),
  },
});

const toAuditEvent = (row: AuditEventRow): z.infer<typeof AuditEventSchema> => ({
  id: row.id,
  action: row.action,
  actor: { type: row.actorType, user_id: row.actorUserId, key_id: row.actorKeyId },
  target: { type: row.targetType, id: row.targetId },
  counts: row.counts,
  request_id: row.requestId,
  created_at: row.createdAt.toISOString(),
});

export function registerGetAdminAudit(app: ApiApp) {
  app.openapi(getAdminAuditRoute, async (c) => {
    const { since, until, ...query } = c.req.valid('query');
    const page = await c.get('services').audit.list(c.get('principal'), {
      ...query,
      ...(since ? { since: new Date(since) } : {}),
      ...(until ? { until: new Date(until) } : {}),
    });
    return c.json({ events: page.events.map(toAuditEvent), next_cursor: page.nextCursor }, 200);
  });
}
