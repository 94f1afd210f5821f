import type { AuthInfo, CallToolResult, JSONRPCRequest, McpHandlerRequestOptions, McpRequestContext } from '@modelcontextprotocol/server';
import { requireScopes } from '../auth/bearer';
import type { Principal } from '../auth/principal';
import { AppError } from '../errors';
import { isRecord } from '../json';
import type { ApiApp } from '../http/env';
import { problemResponse } from '../http/errors';
import type { InProcessAnswer } from '../http/in-process';
import { BEARER_SCHEME } from '../http/route';
import { MCP_LIMITS } from '../limits';
import { SERVER_INSTRUCTIONS } from './instructions';
import { invokeTool, type InProcessCaller } from './invoke';
import { isIdLike, isPlainLegacyRequest, isPlainModernToolCall, MODERN_ENVELOPE_KEYS, RESERVED_META_PREFIX } from './plain-request';
import { MEMORY_RESOURCE_SCOPES, serveMemoryResources } from './memory-resources';
import { ExchangeTransport, responseBody } from './exchange-transport';
import { buildToolCatalog, type OpenApiDocument, type OperationTool } from './openapi-tools';
import { requireAllowedOrigin } from './origin';
import { MCP_PATH } from './path';
import { UNKNOWN_TOOL, type ToolCallOutcome } from '../observability/metrics';

export { MCP_PATH };
/** Operator and key-management operations are never tools, whatever MCP_TOOL_TAGS says. */
const NEVER_EXPOSED_TAGS = ['Operator', 'API keys', 'Org', 'System'];

/**
 * How long a 2026-07-28 client may reuse a tools, prompts or resource-templates list. They
 * change only with a deploy and differ between keys only by scopes, which a key cannot
 * change: `private`, because they depend on who asks. Resource lists and reads (memories,
 * which change any time) keep the SDK's default, `ttlMs: 0`.
 */
const LIST_CACHE = { ttlMs: 300_000, cacheScope: 'private' } as const;

export interface McpOptions {
  toolTags: readonly string[];
  allowedOrigins: readonly string[];
  serverInfo: { name: string; version: string };
  /** Counts each tools/call by tool name (from the catalog, else 'unknown') and outcome (metrics). */
  onToolCall?: (tool: string, outcome: ToolCallOutcome) => void;
}

export interface McpBridge {
  /** The tools, built once from the app's OpenAPI document (throws on a bad document). */
  tools(): OperationTool[];
}

/** What a request's handlers need to know about the caller, handed over as the SDK's authInfo. */
interface Caller extends InProcessCaller {
  principal: Principal;
  /**
   * Whether the server that serves this request may serve others afterwards: not after an
   * `initialize`, which binds a server to the client's protocol version.
   */
  reusable: boolean;
}

/** The tools a set of scopes may see, with the tools/list answer built once for that set. */
interface ToolSurface {
  list: { tools: OperationTool['definition'][] };
  byName: ReadonlyMap<string, OperationTool>;
}

/** Serves one MCP HTTP request, whichever protocol era it speaks. */
type McpEndpoint = (request: Request, options: McpHandlerRequestOptions) => Promise<Response>;

/**
 * The JSON body answering a single 2025-era JSON-RPC request (not `initialize`): a plain
 * tools/call answered directly (answerToolCall), any other request by a pooled server on a
 * transport it keeps (see ExchangeTransport); or a plain 2026-07-28 tools/call, answered
 * directly too; undefined for anything else (batches, notifications, other 2026-07-28
 * requests, refusals), which the SDK's own handlers then serve.
 */
type McpExchange = (body: unknown, headers: Headers, authInfo: AuthInfo) => Promise<string | undefined>;

/**
 * The MCP SDK, loaded with the first MCP request rather than at start-up, and the one JSON
 * Schema validator every per-request Server shares (each would otherwise build its own Ajv).
 */
const loadSdk = (() => {
  let loading: ReturnType<typeof load> | undefined;
  const load = async () => {
    const [sdk, { AjvJsonSchemaValidator }] = await Promise.all([
      import('@modelcontextprotocol/server'),
      import('@modelcontextprotocol/server/validators/ajv'),
    ]);
    return { ...sdk, jsonSchemaValidator: new AjvJsonSchemaValidator() };
  };
  return () => (loading ??= load());
})();

/** Whether a JSON-RPC body is (or holds) an `initialize` request. */
function isInitialize(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((message) => typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'initialize');
}

/**
 * The name and arguments of a tools/call whose params are plain: a name, an arguments
 * object and a `_meta` of no protocol meaning here (no key in the protocol's reserved
 * namespace but the `envelope` ones its era requires, a progress token at most); undefined
 * for anything else (a task-augmented call, a malformed one), which the SDK's server then
 * answers.
 */
function plainToolCall(params: unknown, envelope: readonly string[] = []): { name: string; arguments: Record<string, unknown> } | undefined {
  if (!isRecord(params) || typeof params.name !== 'string') return undefined;
  const { name, arguments: args = {}, _meta: meta = {}, ...rest } = params;
  if (Object.keys(rest).length > 0 || !isRecord(args) || !isRecord(meta)) return undefined;
  if (meta.progressToken !== undefined && !isIdLike(meta.progressToken)) return undefined;
  if (Object.keys(meta).some((key) => key.startsWith(RESERVED_META_PREFIX) && !envelope.includes(key))) return undefined;
  return { name, arguments: args };
}

/** Where the SDK's encoder puts the server's identity in every 2026-07-28 result's `_meta`. */
const SERVER_INFO_META_KEY = `${RESERVED_META_PREFIX}serverInfo`;

/** One key per set of scopes, whatever their order: what surfaces and pooled servers are kept by. */
const scopeSetKey = (scopes: readonly string[]): string => [...scopes].sort().join(' ');

function usableBy(tool: OperationTool, scopes: readonly string[]): boolean {
  return tool.requiredScopes.every((scope) => scopes.includes(scope));
}

/**
 * POST /mcp: MCP 2026-07-28 (stateless, `_meta` envelope) and the 2025 revisions (stateless
 * fallback) on one endpoint, JSON responses. Every allowed OpenAPI operation of `app` is a
 * tool; a call runs the real route in-process with the caller's identity.
 */
export function registerMcpRoute(app: ApiApp, options: McpOptions): McpBridge {
  let catalog: OperationTool[] | undefined;
  const tools = () =>
    (catalog ??= buildToolCatalog(app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'tools', version: '1' } }) as OpenApiDocument, {
      allowTags: options.toolTags,
      denyTags: NEVER_EXPOSED_TAGS,
      bearerScheme: BEARER_SCHEME,
    }));

  // Keys differ only by scopes, and there are few scope sets: each one's list is built once.
  const surfaces = new Map<string, ToolSurface>();
  const surfaceFor = (scopes: readonly string[]): ToolSurface => {
    const key = scopeSetKey(scopes);
    let surface = surfaces.get(key);
    if (!surface) {
      const visible = tools().filter((tool) => usableBy(tool, scopes));
      surface = { list: { tools: visible.map((tool) => tool.definition) }, byName: new Map(visible.map((tool) => [tool.definition.name, tool])) };
      surfaces.set(key, surface);
    }
    return surface;
  };

  let handler: Promise<{ serve: McpEndpoint; exchange: McpExchange }> | undefined;
  const createHandler = async () => {
    const sdk = await loadSdk();
    const { Server, ProtocolError, ProtocolErrorCode, WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest, jsonSchemaValidator } = sdk;
    const { classifyInboundRequest, isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS } = sdk;
    type McpServer = InstanceType<typeof Server>;
    const callerOf = (ctx: { http?: { authInfo?: AuthInfo } }): Caller => {
      const caller = ctx.http?.authInfo?.extra?.caller as Caller | undefined;
      if (!caller) throw new Error('MCP request without a caller (the bearer check must run first)');
      return caller;
    };
    /** Runs a visible tool for a caller, counted by outcome (metrics). */
    const callTool = (tool: OperationTool, args: Record<string, unknown>, caller: InProcessCaller): Promise<CallToolResult> => {
      const result = invokeTool(tool, args, caller);
      const { onToolCall } = options;
      if (!onToolCall) return result;
      return result.then(
        (answer) => (onToolCall(tool.definition.name, answer.isError ? 'error' : 'ok'), answer),
        (error: unknown) => {
          onToolCall(tool.definition.name, 'error');
          throw error;
        },
      );
    };

    /**
     * The JSON-RPC answer to a plain 2025-era tools/call of a tool the caller can see, made
     * here rather than by an SDK server: the result is the one the SDK's tools/call handler
     * sends (invokeTool's), and so is the error of a call that throws. The SDK's dispatch
     * adds nothing such a call needs (a request context, an AbortController, validating the
     * request twice and the result once), and cost ~0.45 ms of CPU per call, most of MCP's
     * premium over REST (docs/benchmarks.md). test/mcp-reuse.test.ts holds the two answers equal.
     */
    const answerToolCall = async (
      id: JSONRPCRequest['id'],
      tool: OperationTool,
      args: Record<string, unknown>,
      caller: InProcessCaller,
      modern = false,
    ): Promise<string> => {
      let result: CallToolResult;
      try {
        result = await callTool(tool, args, caller);
      } catch (error) {
        return JSON.stringify({ jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InternalError, message: (error as Error).message ?? 'Internal error' } });
      }
      // A 2026-07-28 result carries what the SDK's encoder stamps on it: its kind and the server's identity.
      const answer = modern ? { ...result, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: options.serverInfo } } : result;
      return responseBody('tools/call', { jsonrpc: '2.0', id, result: answer });
    };

    // A low-level Server holds nothing of a caller (its handlers read the caller from each
    // request's authInfo), so one built for a scope set and era serves request after
    // request: the SDK needs only that it is not serving two at once. Idle ones wait here.
    const idle = new Map<string, McpServer[]>();
    const build = (scopes: readonly string[], poolKey: string | undefined): McpServer => {
      const surface = surfaceFor(scopes);
      const readsMemories = MEMORY_RESOURCE_SCOPES.every((scope) => scopes.includes(scope));
      const server = new Server(options.serverInfo, {
        capabilities: { tools: { listChanged: false }, ...(readsMemories ? { resources: {}, prompts: {} } : {}) },
        instructions: SERVER_INSTRUCTIONS,
        jsonSchemaValidator,
        cacheHints: { 'tools/list': LIST_CACHE, 'prompts/list': LIST_CACHE, 'resources/templates/list': LIST_CACHE },
      });
      server.setRequestHandler('tools/list', () => surface.list);
      server.setRequestHandler('tools/call', (request, ctx) => {
        const tool = surface.byName.get(request.params.name);
        if (!tool) {
          options.onToolCall?.(UNKNOWN_TOOL, 'unknown_tool');
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
        }
        return callTool(tool, request.params.arguments ?? {}, callerOf(ctx));
      });
      if (readsMemories) serveMemoryResources(server, sdk, callerOf);
      // Back to the pool when its exchange is over (the SDK closes it then).
      if (poolKey !== undefined) {
        server.onclose = () => {
          const free = idle.get(poolKey) ?? [];
          if (free.length < MCP_LIMITS.idleServers) idle.set(poolKey, [...free, server]);
        };
      }
      return server;
    };
    // One factory for both eras.
    const factory = ({ era, authInfo }: McpRequestContext) => {
      const caller = callerOf({ ...(authInfo && { http: { authInfo } }) });
      const scopes = caller.principal.scopes as readonly string[];
      if (!caller.reusable) return build(scopes, undefined);
      const poolKey = `${era} ${scopeSetKey(scopes)}`;
      return idle.get(poolKey)?.pop() ?? build(scopes, poolKey);
    };
    // `auto` answers with one JSON body unless a handler sends a message before its result,
    // which ours never do: JSON always, without the console warning `json` mode prints.
    const modern = createMcpHandler(factory, { responseMode: 'auto', legacy: 'reject' });
    // 2025 clients get the SDK's stateless serving too, but with JSON answers: its own
    // fallback always streams SSE, which costs a stream per call for one message.
    const legacy = async (request: Request, requestOptions: McpHandlerRequestOptions): Promise<Response> => {
      const server = factory({ era: 'legacy', ...(requestOptions.authInfo && { authInfo: requestOptions.authInfo }), requestInfo: request });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request, requestOptions);
      } finally {
        await server.close();
      }
    };
    const serve: McpEndpoint = async (request, requestOptions) =>
      (await isLegacyRequest(request, requestOptions.parsedBody)) ? legacy(request, requestOptions) : modern.fetch(request, requestOptions);

    // Servers kept connected to an ExchangeTransport, by scope set, for the other single 2025 requests.
    const connected = new Map<string, { server: McpServer; transport: ExchangeTransport }[]>();
    const exchange: McpExchange = async (body, headers, authInfo) => {
      const header = (name: string) => headers.get(name) ?? undefined;
      // A 2025-era JSON-RPC request other than `initialize`: the SDK classification's
      // `legacy`/`no-claim` outcome, asked of it only when plain checks cannot tell. Of the
      // 2026-07-28 era, only a plain tools/call is answered here.
      let modern = false;
      if (!isPlainLegacyRequest(body, header, SUPPORTED_PROTOCOL_VERSIONS)) {
        const route = classifyInboundRequest({
          httpMethod: 'POST',
          protocolVersionHeader: header('mcp-protocol-version'),
          mcpMethodHeader: header('mcp-method'),
          mcpNameHeader: header('mcp-name'),
          body,
        });
        if (route.kind === 'modern' && route.messageKind === 'request') {
          if (!isPlainModernToolCall(body, route.classification.revision, headers)) return undefined;
          modern = true;
        } else if (route.kind !== 'legacy' || route.reason !== 'no-claim') return undefined;
      }
      const request = body as JSONRPCRequest;
      const accept = header('accept') ?? '';
      // What the SDK's transport would refuse (406, 415) it refuses itself, with its messages.
      if (!accept.includes('application/json') || !accept.includes('text/event-stream') || !isJsonContentType(header('content-type'))) return undefined;
      // An unsupported 2025-era MCP-Protocol-Version is the SDK transport's 400 to give.
      // (Servers are built with the SDK's default list of versions.)
      const version = header('mcp-protocol-version');
      if (!modern && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
      const caller = callerOf({ http: { authInfo } });
      const scopes = caller.principal.scopes as readonly string[];
      const call = request.method === 'tools/call' ? plainToolCall(request.params, modern ? MODERN_ENVELOPE_KEYS : []) : undefined;
      const tool = call && surfaceFor(scopes).byName.get(call.name);
      if (call && tool) return answerToolCall(request.id, tool, call.arguments, caller, modern);
      // Of the 2026-07-28 era only that call is ours; the pooled servers below speak 2025.
      if (modern) return undefined;
      const key = scopeSetKey(scopes);
      let pair = connected.get(key)?.pop();
      if (!pair?.transport.open) {
        pair = { server: build(scopes, undefined), transport: new ExchangeTransport() };
        await pair.server.connect(pair.transport);
      }
      try {
        return responseBody(request.method, await pair.transport.exchange(request, { authInfo }));
      } finally {
        const free = connected.get(key) ?? [];
        if (pair.transport.open && free.length < MCP_LIMITS.idleServers) connected.set(key, [...free, pair]);
      }
    };
    return { serve, exchange };
  };

  app.post(MCP_PATH, requireAllowedOrigin(options.allowedOrigins), requireScopes([], { advertiseResourceMetadata: true }), async (c) => {
    const mcp = await (handler ??= createHandler());
    const principal = c.get('principal');
    // The body is read through Hono, which the Node adapter serves straight from the socket;
    // left to the SDK, it would be read through a web stream. What is not JSON goes to the
    // SDK as it came, for its JSON-RPC parse error.
    const text = await c.req.text();
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(text);
    } catch {
      parsedBody = undefined;
    }
    const headers = new Headers({ 'x-request-id': c.get('requestId') });
    const authorization = c.req.header('authorization');
    if (authorization) headers.set('authorization', authorization);
    const caller: Caller = {
      principal,
      requestId: c.get('requestId'),
      headers,
      // The app in-process, as the caller already authenticated: no second pass through
      // authentication, rate limit, deadline or body checks (see http/in-process.ts).
      dispatch: async (request, jsonBody) => {
        const answer: InProcessAnswer = {};
        const response = await app.fetch(request, { channel: 'mcp', principal, answer, ...(jsonBody !== undefined && { jsonBody }) });
        return { response, answer };
      },
      reusable: !isInitialize(parsedBody),
    };
    const authInfo: AuthInfo = { token: '', clientId: principal.keyId ?? principal.scope.userId, scopes: [...principal.scopes], extra: { caller } };
    const exchanged = parsedBody === undefined ? undefined : await mcp.exchange(parsedBody, c.req.raw.headers, authInfo);
    if (exchanged !== undefined) return c.body(exchanged, 200, { 'content-type': 'application/json' });
    const response =
      parsedBody === undefined
        ? await mcp.serve(new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: text }), { authInfo })
        : await mcp.serve(c.req.raw, { authInfo, parsedBody });
    // Rebuilt through the context so headers set earlier (x-request-id, RateLimit) are kept;
    // a JSON answer as text, which the Node adapter writes at once rather than as a stream.
    const json = response.headers.get('content-type')?.startsWith('application/json');
    return c.newResponse(json ? await response.text() : response.body, response);
  });

  // Stateless: no server-initiated stream to GET, no session to DELETE.
  app.on(['GET', 'DELETE'], MCP_PATH, (c) =>
    problemResponse(c, new AppError('method_not_allowed', 'The MCP endpoint takes POST only (stateless Streamable HTTP)', { headers: { Allow: 'POST' } })),
  );

  return { tools };
}
