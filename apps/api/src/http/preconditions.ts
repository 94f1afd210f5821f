import { z } from '@hono/zod-openapi';

/** If-Match on a change: act only if the resource is still the version the client read. */
export const IfMatchHeaders = z.object({
  'if-match': z
    .string()
    .max(1024)
    .optional()
    .openapi({
      description:
        'Change only if the resource is still this version: an ETag from an earlier answer (strong comparison; a weak `W/` tag never matches), a list of them, or `*`. Otherwise 412.',
    }),
});

export const etagResponseHeader = {
  ETag: { description: 'A strong entity tag of this version of the resource; send it back in If-Match.', schema: { type: 'string' as const } },
};
