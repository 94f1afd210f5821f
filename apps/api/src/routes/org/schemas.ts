import { z } from '@hono/zod-openapi';
import { ROLES, type OrgRow, type UserRow } from '@memory-bank/db';

export const Email = z
  .string()
  .trim()
  .max(320)
  .pipe(z.email({ message: 'Must be an email address' }))
  .openapi({ example: 'ada@example.com' });

export const UserSchema = z
  .object({
    id: z.string().openapi({ example: 'usr_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
    email: z.string(),
    role: z.enum(ROLES),
    created_at: z.string().openapi({ format: 'date-time' }),
    removed_at: z.string().nullable().openapi({ format: 'date-time', description: 'Set once removed from the org.' }),
  })
  .openapi('User');

export const UserIdParams = z.object({
  user_id: z.string().openapi({ param: { name: 'user_id', in: 'path' }, example: 'usr_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
});

export const PurgeCountsSchema = z
  .object({
    memories: z.number().int(),
    contexts: z.number().int(),
    workstreams: z.number().int(),
    segments: z.number().int().openapi({ description: 'Archived segment objects deleted from object storage.' }),
  })
  .openapi('PurgeCounts');

export const OrgSchema = z
  .object({
    id: z.string().openapi({ example: 'org_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
    name: z.string(),
    created_at: z.string().openapi({ format: 'date-time' }),
    redact_memory_secrets: z.boolean().openapi({
      description: 'Secrets in memory content and contexts are replaced with `[REDACTED:<kind>]` on save and update (default `true`).',
    }),
    dedupe_memories: z.boolean().openapi({
      description: 'A save equal to a live memory of the same owner and scope adds to that memory instead of storing a copy (default `true`).',
    }),
    memory_retention_days: z.number().int().nullable().openapi({
      description: 'Memories not updated for this many days are deleted (pinned ones are kept); `null` (the default): kept until deleted.',
    }),
    workstream_retention_days: z.number().int().nullable().openapi({
      description:
        'Workstream events received more than this many days ago leave the ledger and the archive; `null` (the default): kept until deleted.',
    }),
  })
  .openapi('Org');

export function toUserResponse(user: UserRow): z.infer<typeof UserSchema> {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    created_at: user.createdAt.toISOString(),
    removed_at: user.removedAt?.toISOString() ?? null,
  };
}

export function toOrgResponse(org: OrgRow): z.infer<typeof OrgSchema> {
  return {
    id: org.id,
    name: org.name,
    created_at: org.createdAt.toISOString(),
    redact_memory_secrets: org.redactMemorySecrets,
    dedupe_memories: org.dedupeMemories,
    memory_retention_days: org.memoryRetentionDays,
    workstream_retention_days: org.workstreamRetentionDays,
  };
}
