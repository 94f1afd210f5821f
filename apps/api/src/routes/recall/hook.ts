import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { RECALL_SHAPES } from '../../hooks/recall-outputs';
import { HarnessSchema, HookPayloadSchema, ProjectHeaderSchema } from '../hooks/schemas';

/**
 * What the hook prints, in the harness's own shape (hooks/recall-outputs.ts): Claude Code,
 * Codex, Gemini CLI, Factory Droid `hookSpecificOutput`; Cursor `additional_context`; Cline
 * `contextModification`; `{}` for nothing to add. Kimi takes plain text.
 */
const HookOutputSchema = z
  .object({
    hookSpecificOutput: z
      .object({ hookEventName: z.string(), additionalContext: z.string() })
      .optional()
      .openapi({ description: 'Claude Code, Codex, Gemini CLI, Factory Droid (and the generic form).' }),
    additional_context: z.string().optional().openapi({ description: 'Cursor, on sessionStart.' }),
    contextModification: z.string().optional().openapi({ description: 'Cline, on TaskStart, TaskResume and UserPromptSubmit.' }),
  })
  .openapi('RecallHookOutput');

export const postHookRecallRoute = authedRoute(['memory:read', 'hooks:write'], {
  method: 'post',
  path: '/v1/hooks/{harness}/recall',
  operationId: 'postHookRecall',
  tags: ['Recall'],
  summary: 'Recall for a hook payload, answered as hook output',
  description:
    "postRecall for a hook command: takes the hook's JSON input as the harness gives it and answers with what the hook prints, in the harness's own shape — Claude Code, Codex, Factory Droid (SessionStart, UserPromptSubmit) and Gemini CLI (SessionStart, BeforeAgent) `{\"hookSpecificOutput\":{\"hookEventName\":…,\"additionalContext\":…}}`; Cursor (sessionStart) `{\"additional_context\":…}`; Cline (TaskStart, TaskResume, UserPromptSubmit) `{\"contextModification\":…}`; Kimi (UserPromptSubmit) the context as `text/plain`, its session's first one with the pinned memories. `{}` (Kimi: an empty body) when there is nothing to add, for other events and for Copilot, whose hooks cannot add context. integrations/recall.sh calls it.",
  'x-mcp': false,
  request: {
    params: z.object({ harness: HarnessSchema.openapi({ param: { name: 'harness', in: 'path' } }) }),
    headers: z.object({ 'memory-bank-project': ProjectHeaderSchema }),
    body: { required: true, content: { 'application/json': { schema: HookPayloadSchema } } },
  },
  responses: {
    200: {
      description: 'The hook output.',
      content: { 'application/json': { schema: HookOutputSchema }, 'text/plain': { schema: z.string().openapi({ description: 'Kimi: the context itself, or nothing.' }) } },
    },
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

export function registerPostHookRecall(app: ApiApp) {
  app.openapi(postHookRecallRoute, async (c) => {
    const harness = c.req.valid('param').harness;
    const recalled = await c.get('services').recall.recallForHook(c.get('principal'), harness, c.req.valid('json'), c.req.valid('header')['memory-bank-project']);
    const output = RECALL_SHAPES[harness].render(recalled?.eventName ?? '', recalled?.result.text ?? '');
    return 'text' in output ? c.text(output.text, 200) : c.json(output.json, 200);
  });
}
