import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { BEARER_SCHEME } from '../http/route';
import { truncateText } from '../text';
import { getMemoryByIdRoute } from '../routes/memory/get';
import { getMemoryRoute } from '../routes/memory/list';
import { getMemorySearchRoute } from '../routes/memory/search';
import { IN_PROCESS_ORIGIN, type Dispatch, type InProcessCaller } from './invoke';

/**
 * Memories as MCP resources (a client can attach one to a conversation, e.g. `@` in Claude
 * Code) and a `recall` prompt (a slash command that brings what the memory knows about a
 * topic into the conversation). Like tools, both run the REST routes in-process as the
 * caller, so visibility, scoping and errors are REST's.
 */
export const MEMORY_URI_PREFIX = 'memory-bank://memories/';
const MEMORY_URI_TEMPLATE = `${MEMORY_URI_PREFIX}{id}`;
const RESOURCE_PAGE = 50;
const RECALLED = 10;
const NAME_CHARS = 80;

/** The scopes of the routes resources and the prompt read through: a key without them is offered neither. */
export const MEMORY_RESOURCE_SCOPES: readonly string[] = [
  ...new Set([getMemoryRoute, getMemoryByIdRoute, getMemorySearchRoute].flatMap((route) => route.security.flatMap((requirement) => requirement[BEARER_SCHEME] ?? []))),
];

interface MemoryBody {
  id: string;
  scope: string;
  content: string;
  tags: string[];
  contexts: { snippet: string; citation: unknown }[];
  updated_at: string;
}

type Sdk = Pick<typeof import('@modelcontextprotocol/server'), 'ProtocolError' | 'ProtocolErrorCode' | 'ResourceNotFoundError'>;

async function getJson<T>(dispatch: Dispatch, headers: Headers, path: string): Promise<{ status: number; body: T }> {
  const response = await dispatch(new Request(`${IN_PROCESS_ORIGIN}${path}`, { headers: new Headers(headers) }));
  return { status: response.status, body: (await response.json()) as T };
}

const uriOf = (memory: MemoryBody) => `${MEMORY_URI_PREFIX}${memory.id}`;
const nameOf = (memory: MemoryBody) => truncateText(memory.content.replace(/\s+/g, ' ').trim(), NAME_CHARS).text;

/** A memory as the model reads it: the text, then where it comes from and how to cite it. */
function render(memory: MemoryBody): string {
  const lines = [memory.content, '', `— ${memory.id} (${memory.scope === 'org' ? 'shared with the team' : 'private'}${memory.tags.length ? `; tags: ${memory.tags.join(', ')}` : ''}; updated ${memory.updated_at})`];
  for (const context of memory.contexts) lines.push(`  context: "${context.snippet}"${context.citation ? ` ${JSON.stringify(context.citation)}` : ''}`);
  return lines.join('\n');
}

/** The caller of the request a handler serves (servers are reused across callers of one scope set). */
export type CallerOf = (ctx: ServerContext) => InProcessCaller;

export function serveMemoryResources(server: Server, sdk: Sdk, callerOf: CallerOf): void {
  const fail = (status: number, detail: unknown) =>
    new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, `Memory Bank answered ${status}`, detail);

  server.setRequestHandler('resources/list', async (request, ctx) => {
    const { dispatch, headers } = callerOf(ctx);
    const cursor = request.params?.cursor;
    const query = new URLSearchParams({ limit: String(RESOURCE_PAGE), ...(cursor ? { cursor } : {}) });
    const { status, body } = await getJson<{ memories: MemoryBody[]; next_cursor: string | null }>(dispatch, headers, `${getMemoryRoute.path}?${query}`);
    if (status !== 200) throw status === 400 ? new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, 'Invalid cursor', body) : fail(status, body);
    return {
      resources: body.memories.map((memory) => ({ uri: uriOf(memory), name: memory.id, title: nameOf(memory), mimeType: 'text/plain' })),
      ...(body.next_cursor ? { nextCursor: body.next_cursor } : {}),
    };
  });

  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [{ uriTemplate: MEMORY_URI_TEMPLATE, name: 'memory', title: 'A memory by its id', mimeType: 'text/plain' }],
  }));

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { dispatch, headers } = callerOf(ctx);
    const { uri } = request.params;
    const id = uri.startsWith(MEMORY_URI_PREFIX) ? uri.slice(MEMORY_URI_PREFIX.length) : '';
    if (!/^mem_[0-9A-Za-z]+$/.test(id)) throw new sdk.ResourceNotFoundError(uri);
    const { status, body } = await getJson<MemoryBody>(dispatch, headers, getMemoryByIdRoute.path.replace('{id}', id));
    // Another tenant's memory is a missing one, as over REST.
    if (status === 404) throw new sdk.ResourceNotFoundError(uri);
    if (status !== 200) throw fail(status, body);
    return { contents: [{ uri, mimeType: 'text/plain', text: render(body) }] };
  });

  server.setRequestHandler('prompts/list', () => ({
    prompts: [
      {
        name: 'recall',
        title: 'Recall from Memory Bank',
        description: 'Brings the memories most relevant to a topic into the conversation, each with its id for citing.',
        arguments: [{ name: 'topic', description: 'What to recall: a few keywords.', required: true }],
      },
    ],
  }));

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { dispatch, headers } = callerOf(ctx);
    if (request.params.name !== 'recall') throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const topic = request.params.arguments?.topic?.trim();
    if (!topic) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, 'The recall prompt needs a topic');
    const query = new URLSearchParams({ q: topic, limit: String(RECALLED) });
    const { status, body } = await getJson<{ results: MemoryBody[] }>(dispatch, headers, `${getMemorySearchRoute.path}?${query}`);
    if (status === 400) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, 'Invalid topic', body);
    if (status !== 200) throw fail(status, body);
    const text =
      body.results.length === 0
        ? `Memory Bank has no memories about "${topic}".`
        : [`What Memory Bank remembers about "${topic}" (cite memories by id):`, ...body.results.map((memory) => `\n${render(memory)}`)].join('\n');
    return { description: `Memories about ${topic}`, messages: [{ role: 'user', content: { type: 'text', text } }] };
  });
}
