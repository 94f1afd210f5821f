import type { AuthInfo, CallToolResult, McpHandlerRequestOptions, McpRequestContext, ServerContext } from '@modelcontextprotocol/server';
import type { Context, MiddlewareHandler } from 'hono';
import { requireScopes } from '../auth/bearer';
import { defaultScopes } from '../auth/principal';
import { AppError, insufficientScope } from '../errors';
import type { ApiApp, AppEnv } from '../http/env';
import { problemResponse } from '../http/errors';
import { BEARER_SCHEME } from '../http/route';
import { UNKNOWN_TOOL, type ToolCallOutcome } from '../observability/metrics';
import { SERVER_INSTRUCTIONS } from './instructions';
import { invokeTool, type InProcessCaller } from './invoke';
import { MEMORY_RESOURCE_SCOPES, serveMemoryResources } from './memory-resources';
import { buildToolCatalog, type OpenApiDocument, type OperationTool } from './openapi-tools';
import { requireAllowedOrigin } from './origin';
import { MCP_PATH } from './path';

export { MCP_PATH };
/** Operator and key-management operations are never tools, whatever MCP_TOOL_TAGS says. */
const NEVER_EXPOSED_TAGS = ['Operator', 'API keys', 'Org', 'System', 'OAuth'];

/**
 * How long a 2026-07-28 client may reuse a tools, prompts or resource-templates list. They
 * change only with a deploy and differ between keys only by scopes, which a key cannot
 * change: `private`, because they depend on who asks. Resource lists and reads (memories,
 * which change any time) keep the SDK's default, `ttlMs: 0`.
 */
const LIST_CACHE = { ttlMs: 300_000, cacheScope: 'private' } as const;

/** Idle MCP servers kept per protocol era and scope set; beyond this many a server is dropped after its request. */
const IDLE_SERVERS = 64;

export interface McpOptions {
  toolTags: readonly string[];
  /** The endpoint for OAuth clients (/mcp/oauth), when the authorization server is on. */
  oauth?: { path: string; authenticate: MiddlewareHandler<AppEnv>; resourceMetadata: string };
  allowedOrigins: readonly string[];
  serverInfo: { name: string; version: string };
  /** Counts each tools/call by tool name (from the catalog, else 'unknown') and outcome (metrics). */
  onToolCall?: (tool: string, outcome: ToolCallOutcome) => void;
}

export interface McpBridge {
  /** The tools, built once from the app's OpenAPI document (throws on a bad document). */
  tools(): OperationTool[];
}

/** The tools a set of scopes may see, with the tools/list answer built once for that set. */
interface ToolSurface {
  list: { tools: OperationTool['definition'][] };
  byName: ReadonlyMap<string, OperationTool>;
}

/** The caller rides in the SDK's authInfo, which reaches the factory and every handler. */
function callerOf(authInfo: AuthInfo | undefined): InProcessCaller & { scopes: readonly string[] } {
  const caller = authInfo?.extra?.caller as InProcessCaller | undefined;
  if (!authInfo || !caller) throw new Error('MCP request without a caller (the bearer check must run first)');
  return { ...caller, scopes: authInfo.scopes };
}
const handlerCaller = (ctx: ServerContext) => callerOf(ctx.http?.authInfo);

/** Loaded with the first MCP request rather than at start-up. */
const loadSdk = (() => {
  let loading: ReturnType<typeof load> | undefined;
  const load = async () => {
    const [sdk, { AjvJsonSchemaValidator }] = await Promise.all([
      import('@modelcontextprotocol/server'),
      import('@modelcontextprotocol/server/validators/ajv'),
    ]);
    // One validator for every per-request server (each would otherwise compile its own Ajv).
    return { sdk, jsonSchemaValidator: new AjvJsonSchemaValidator() };
  };
  return () => (loading ??= load());
})();

type McpEndpoint = (request: Request, options: McpHandlerRequestOptions) => Promise<Response>;

/** One key per set of scopes, whatever their order: what tool lists and idle servers are kept by. */
const scopeSetKey = (scopes: readonly string[]): string => [...scopes].sort().join(' ');

/**
 * The request body as JSON, or undefined when it is not JSON (the SDK answers that with its
 * JSON-RPC parse error). The body middleware size-checked and read it; read once, kept.
 */
async function parsedBodyOf(c: Context<AppEnv>): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The tool a single JSON-RPC `tools/call` request names, if the body is one. */
const toolCallOf = (body: unknown): string | undefined => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
};

/** Whether a JSON-RPC body is (or holds) an `initialize` request. */
const isInitialize = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).some((message) => typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'initialize');

/**
 * POST /mcp: MCP 2026-07-28 and the 2025 revisions on one endpoint, served by the SDK, with
 * JSON answers. Every allowed OpenAPI operation of `app` is a tool; a call runs the real
 * route in-process with the caller's identity (invoke.ts).
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
      const visible = tools().filter((tool) => tool.requiredScopes.every((scope) => scopes.includes(scope)));
      surface = { list: { tools: visible.map((tool) => tool.definition) }, byName: new Map(visible.map((tool) => [tool.definition.name, tool])) };
      surfaces.set(key, surface);
    }
    return surface;
  };

  const countedCall = async (tool: OperationTool, args: Record<string, unknown>, caller: InProcessCaller): Promise<CallToolResult> => {
    try {
      const result = await invokeTool(tool, args, caller);
      options.onToolCall?.(tool.definition.name, result.isError ? 'error' : 'ok');
      return result;
    } catch (error) {
      options.onToolCall?.(tool.definition.name, 'error');
      throw error;
    }
  };

  const createEndpoint = async (): Promise<McpEndpoint> => {
    const { sdk, jsonSchemaValidator } = await loadSdk();
    const { Server, ProtocolError, ProtocolErrorCode } = sdk;

    // A low-level Server holds nothing of a caller (its handlers read the caller from each
    // request's authInfo), so one built for a scope set serves request after request: the
    // SDK needs only that it serves one at a time, and closes it when its exchange is over.
    // Idle ones wait here, per protocol era and scope set; not one that served `initialize`,
    // which binds a 2025-era server to the client's protocol version.
    const idle = new Map<string, InstanceType<typeof Server>[]>();
    const build = (scopes: readonly string[]) => {
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
        return countedCall(tool, request.params.arguments ?? {}, handlerCaller(ctx));
      });
      if (readsMemories) serveMemoryResources(server, sdk, handlerCaller);
      return server;
    };
    const factory = ({ era, authInfo }: McpRequestContext) => {
      const { scopes } = callerOf(authInfo);
      const key = `${era} ${scopeSetKey(scopes)}`;
      const server = idle.get(key)?.pop() ?? build(scopes);
      server.onclose = () => {
        if (authInfo?.extra?.initialize) return;
        const free = idle.get(key) ?? [];
        if (free.length < IDLE_SERVERS) idle.set(key, [...free, server]);
      };
      return server;
    };

    // `auto` answers with one JSON body unless a handler sends a message before its
    // result, which ours never do: JSON, without the warning `json` mode prints.
    const modern = sdk.createMcpHandler(factory, { responseMode: 'auto', legacy: 'reject' });
    // 2025-era clients get the SDK's stateless transport with JSON answers (its built-in
    // fallback streams SSE for every answer): the composition the SDK documents for
    // isLegacyRequest.
    const legacy: McpEndpoint = async (request, requestOptions) => {
      const server = await factory({ era: 'legacy', ...(requestOptions.authInfo && { authInfo: requestOptions.authInfo }), requestInfo: request });
      const transport = new sdk.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request, requestOptions);
      } finally {
        await server.close();
      }
    };
    return async (request, requestOptions) =>
      (await sdk.isLegacyRequest(request, requestOptions.parsedBody)) ? legacy(request, requestOptions) : modern.fetch(request, requestOptions);
  };
  let endpoint: Promise<McpEndpoint> | undefined;

  /**
   * Serves one MCP request of the authenticated `principal`; `visibleScopes` decide which
   * tools it is shown (its own scopes for an API key; its role's for an OAuth token, whose
   * calls beyond its scopes are refused before they reach the SDK, for step-up).
   */
  const serveMcp = async (c: Context<AppEnv>, visibleScopes: readonly string[]): Promise<Response> => {
    const serve = await (endpoint ??= createEndpoint());
    const principal = c.get('principal');
    const headers = new Headers({ 'x-request-id': c.get('requestId') });
    const authorization = c.req.header('authorization');
    if (authorization) headers.set('authorization', authorization);
    const caller: InProcessCaller = {
      requestId: c.get('requestId'),
      headers,
      // The app in-process, as the caller already authenticated: no second pass through
      // authentication, rate limits, deadlines or body checks (http/in-process.ts).
      dispatch: (request) => app.fetch(request, { channel: 'mcp', principal }),
    };
    const authInfo: AuthInfo = { token: '', clientId: principal.keyId ?? principal.scope.userId, scopes: [...visibleScopes], extra: { caller } };
    const parsedBody = await parsedBodyOf(c);
    // A server that answers `initialize` is not pooled afterwards (see the factory).
    if (isInitialize(parsedBody)) authInfo.extra = { ...authInfo.extra, initialize: true };
    const request = parsedBody === undefined ? new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: await c.req.text() }) : c.req.raw;
    const response = await serve(request, { authInfo, ...(parsedBody !== undefined && { parsedBody }) });
    // Rebuilt through the context, so headers set earlier (x-request-id, RateLimit) are kept;
    // a JSON answer as text, which the Node adapter writes at once rather than as a stream.
    const json = response.headers.get('content-type')?.startsWith('application/json');
    return c.newResponse(json ? await response.text() : response.body, response);
  };

  app.post(MCP_PATH, requireAllowedOrigin(options.allowedOrigins), requireScopes([], { advertiseResourceMetadata: true }), (c) => serveMcp(c, c.get('principal').scopes));

  const { oauth } = options;
  if (oauth) {
    app.post(oauth.path, requireAllowedOrigin(options.allowedOrigins), oauth.authenticate, async (c) => {
      const principal = c.get('principal');
      // Step-up (MCP authorization): a call beyond the token's scopes is an HTTP 403 naming
      // every scope the tool needs, so the client asks the person for them in one go.
      const call = toolCallOf(await parsedBodyOf(c));
      const tool = call ? tools().find((candidate) => candidate.definition.name === call) : undefined;
      const held: readonly string[] = principal.scopes;
      if (tool && !tool.requiredScopes.every((scope) => held.includes(scope))) {
        const missing = tool.requiredScopes.filter((scope) => !held.includes(scope));
        throw insufficientScope(tool.requiredScopes, missing, oauth.resourceMetadata);
      }
      return serveMcp(c, defaultScopes(principal.scope.role));
    });
    app.on(['GET', 'DELETE'], oauth.path, (c) =>
      problemResponse(c, new AppError('method_not_allowed', 'The MCP endpoint takes POST only (stateless Streamable HTTP)', { allowedMethods: ['POST'] })),
    );
  }

  // Stateless: no server-initiated stream to GET, no session to DELETE.
  app.on(['GET', 'DELETE'], MCP_PATH, (c) =>
    problemResponse(c, new AppError('method_not_allowed', 'The MCP endpoint takes POST only (stateless Streamable HTTP)', { allowedMethods: ['POST'] })),
  );

  return { tools };
}
