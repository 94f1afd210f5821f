import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { RecallBody, RecallSchema, toRecallResponse } from './schemas';

export const postRecallRoute = authedRoute(['memory:read', 'hooks:write'], {
  method: 'post',
  path: '/v1/recall',
  operationId: 'postRecall',
  tags: ['Recall'],
  summary: 'Recall memories into an agent session',
  description:
    "What to put into an agent session's context now: your memories (and your org's shared ones) most relevant to the user's prompt, or at session start to the project, each cited by id, plus once per session a note on where the last session in the same project (`project`, else the directory) left off. Within a character budget; memories already recalled into this session are not repeated. Each recall that returns context is recorded in the session's ledger as a `recall` event. Agent hooks call this at session start and on every prompt (docs/hooks.md#recall); to look something up on purpose, use getMemorySearch.",
  request: { body: { required: true, content: { 'application/json': { schema: RecallBody } } } },
  responses: {
    200: { description: 'The context to inject (possibly empty) and what it holds.', content: { 'application/json': { schema: RecallSchema } } },
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

export function registerPostRecall(app: ApiApp) {
  app.openapi(postRecallRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await c.get('services').recall.recall(c.get('principal'), {
      harness: body.harness ?? 'generic',
      sessionId: body.session_id,
      trigger: body.trigger,
      ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
      ...(body.cwd !== undefined ? { cwd: body.cwd } : {}),
      ...(body.project !== undefined ? { project: body.project } : {}),
      ...(body.repository !== undefined ? { repository: body.repository } : {}),
      ...(body.max_chars !== undefined ? { maxChars: body.max_chars } : {}),
    });
    return c.json(toRecallResponse(result), 200);
  });
}
