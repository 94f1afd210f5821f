import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { HarnessSchema, HookPayloadSchema } from '../hooks/schemas';

/** Claude Code's hook output (Codex's hooks take the same): the context to add, or `{}` for none. */
const HookOutputSchema = z
  .object({
    hookSpecificOutput: z
      .object({ hookEventName: z.string(), additionalContext: z.string() })
      .optional(),
  })
  .openapi('RecallHookOutput');

export const postHookRecallRoute = authedRoute(['memory:read', 'hooks:write'], {
  method: 'post',
  path: '/v1/hooks/{harness}/recall',
  operationId: 'postHookRecall',
  tags: ['Recall'],
  summary: 'Recall for a hook payload, answered as hook output',
  description:
    "postRecall for a hook command: takes the hook's JSON input as the harness gives it (SessionStart, UserPromptSubmit; other events answer `{}`) and answers with what the hook prints — `{\"hookSpecificOutput\":{\"hookEventName\":…,\"additionalContext\":…}}`, or `{}` when there is nothing to add. integrations/recall.sh calls it.",
  'x-mcp': false,
  request: {
    params: z.object({ harness: HarnessSchema.openapi({ param: { name: 'harness', in: 'path' } }) }),
    body: { required: true, content: { 'application/json': { schema: HookPayloadSchema } } },
  },
  responses: {
    200: { description: 'The hook output.', content: { 'application/json': { schema: HookOutputSchema } } },
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

export function registerPostHookRecall(app: ApiApp) {
  app.openapi(postHookRecallRoute, async (c) => {
    const recalled = await c.get('services').recall.recallForHook(c.get('principal'), c.req.valid('param').harness, c.req.valid('json'));
    if (!recalled || recalled.result.text === '') return c.json({}, 200);
    return c.json({ hookSpecificOutput: { hookEventName: recalled.eventName, additionalContext: recalled.result.text } }, 200);
  });
}
