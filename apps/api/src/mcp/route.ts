import { requireScopes } from '../auth/bearer';
import type { Principal } from '../auth/principal';
import { AppError } from '../errors';
import type { ApiApp } from '../http/env';
import { problemResponse } from '../http/errors';
import { BEARER_SCHEME } from '../http/route';
import { invokeTool } from './invoke';
import { buildToolCatalog, type OpenApiDocument, type OperationTool } from './openapi-tools';
import { requireAllowedOrigin } from './origin';
import { MCP_PATH } from './path';

export { MCP_PATH };
/** Operator and key-management operations are never tools, whatever MCP_TOOL_TAGS says. */
const NEVER_EXPOSED_TAGS = ['Operator', 'API keys', 'Org', 'System'];

export interface McpOptions {
  toolTags: readonly string[];
  allowedOrigins: readonly string[];
  serverInfo: { name: string; version: string };
}

export interface McpBridge {
  /** The tools, built once from the app's OpenAPI document (throws on a bad document). */
  tools(): OperationTool[];
}

/**
 * The MCP SDK, loaded with the first MCP request rather than at start-up, and the one JSON
 * Schema validator every per-request Server shares (each would otherwise build its own Ajv).
 */
const loadSdk = (() => {
  let loading: ReturnType<typeof load> | undefined;
  const load = async () => {
    const [server, transport, types, { AjvJsonSchemaValidator }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
      import('@modelcontextprotocol/sdk/validation/ajv'),
    ]);
    return { ...server, ...transport, ...types, jsonSchemaValidator: new AjvJsonSchemaValidator() };
  };
  return () => (loading ??= load());
})();

function usableBy(tool: OperationTool, principal: Principal): boolean {
  return tool.requiredScopes.every((scope) => (principal.scopes as readonly string[]).includes(scope));
}

/**
 * POST /mcp: Streamable HTTP, stateless, JSON responses. Every allowed OpenAPI operation
 * of `app` is a tool; a call runs the real route in-process with the caller's identity.
 */
export function registerMcpRoute(app: ApiApp, options: McpOptions): McpBridge {
  let catalog: OperationTool[] | undefined;
  const tools = () =>
    (catalog ??= buildToolCatalog(app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'tools', version: '1' } }) as OpenApiDocument, {
      allowTags: options.toolTags,
      denyTags: NEVER_EXPOSED_TAGS,
      bearerScheme: BEARER_SCHEME,
    }));

  app.post(MCP_PATH, requireAllowedOrigin(options.allowedOrigins), requireScopes([], { advertiseResourceMetadata: true }), async (c) => {
    const { Server, WebStandardStreamableHTTPServerTransport, CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, jsonSchemaValidator } =
      await loadSdk();
    const principal = c.var.principal;
    const visible = tools().filter((tool) => usableBy(tool, principal));
    const byName = new Map(visible.map((tool) => [tool.definition.name, tool]));
    const server = new Server(options.serverInfo, { capabilities: { tools: { listChanged: false } }, jsonSchemaValidator });

    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: visible.map((tool) => tool.definition) }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const tool = byName.get(request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      const headers = new Headers({ 'x-request-id': c.var.requestId });
      const authorization = c.req.header('authorization');
      if (authorization) headers.set('authorization', authorization);
      return invokeTool(tool, request.params.arguments ?? {}, {
        headers,
        requestId: c.var.requestId,
        dispatch: (inner) => Promise.resolve(app.fetch(inner, { channel: 'mcp', principal })),
      });
    });

    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      // The body is read through Hono, which the Node adapter serves straight from the socket;
      // left to the transport, it would be read through a web stream. What is not JSON goes
      // to the transport as it came, for its JSON-RPC parse error.
      const text = await c.req.text();
      let parsedBody: unknown;
      try {
        parsedBody = JSON.parse(text);
      } catch {
        parsedBody = undefined;
      }
      const response =
        parsedBody === undefined
          ? await transport.handleRequest(new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: text }))
          : await transport.handleRequest(c.req.raw, { parsedBody });
      // Rebuilt through the context so headers set earlier (x-request-id, RateLimit) are kept.
      return c.newResponse(response.body, response);
    } finally {
      await server.close();
    }
  });

  // Stateless: no server-initiated stream to GET, no session to DELETE.
  app.on(['GET', 'DELETE'], MCP_PATH, (c) =>
    problemResponse(c, new AppError('method_not_allowed', 'The MCP endpoint takes POST only (stateless Streamable HTTP)', { headers: { Allow: 'POST' } })),
  );

  return { tools };
}
