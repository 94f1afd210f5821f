import { isRecord } from '../json';

/** The `_meta` namespace the protocol reserves (its envelope claim, related tasks …). */
export const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';

/** The one 2026-07-28-era revision whose plain tools/call the bridge answers itself. */
export const MODERN_REVISION = '2026-07-28';

/**
 * The envelope keys every 2026-07-28 request carries in `_meta` (the SDK's classification
 * has validated them by the time they are looked at here); any other reserved key (a log
 * level, a related task …) leaves the request to the SDK.
 */
export const MODERN_ENVELOPE_KEYS: readonly string[] = ['protocolVersion', 'clientCapabilities', 'clientInfo'].map((key) => `${RESERVED_META_PREFIX}${key}`);

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** A JSON-RPC id or progress token as the SDK's schemas take them: a string or an integer. */
export const isIdLike = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);

/** Exactly a JSON-RPC request as the SDK's schema takes one: `jsonrpc` "2.0", an id, a method, object params if any, nothing else. */
function isPlainJsonRpcRequest(body: unknown): body is { id: string | number; method: string; params?: Record<string, unknown> } {
  if (!isRecord(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || !isIdLike(body.id)) return false;
  for (const key in body) if (!REQUEST_KEYS.has(key)) return false;
  return body.params === undefined || isRecord(body.params);
}

/**
 * Whether the SDK's classification of this POST (`classifyInboundRequest`) can only be a
 * 2025-era request other than `initialize` (its `legacy`/`no-claim` outcome), told from
 * plain checks: a JSON-RPC request (exactly `jsonrpc` "2.0", a string or integer `id`, a
 * `method`, object `params` if any), no key of the protocol's reserved `_meta` namespace
 * (so no 2026-07-28 envelope claim), a progress token the SDK's schema takes, and no header
 * naming a protocol version other than one of the 2025 ones (`legacyVersions`) or a method
 * or name. False means "ask the SDK", never "refuse": the classification costs ~45 µs of
 * schema parsing per call, most of what a plain tools/call needs from the SDK here.
 * test/mcp-legacy-request.test.ts holds the SDK to the same verdict.
 */
export function isPlainLegacyRequest(body: unknown, header: (name: string) => string | undefined, legacyVersions: readonly string[]): boolean {
  if (!isPlainJsonRpcRequest(body) || body.method === 'initialize') return false;
  const meta = body.params?._meta;
  if (meta !== undefined) {
    if (!isRecord(meta)) return false;
    for (const key in meta) if (key.startsWith(RESERVED_META_PREFIX)) return false;
    if (meta.progressToken !== undefined && !isIdLike(meta.progressToken)) return false;
  }
  const version = header('mcp-protocol-version');
  return (version === undefined || legacyVersions.includes(version)) && header('mcp-method') === undefined && header('mcp-name') === undefined;
}

/**
 * Whether a request the SDK classified as 2026-07-28-era is a plain tools/call its entry
 * would serve as is: exactly a JSON-RPC request (string or integer id) of revision
 * MODERN_REVISION, with the standard headers the revision asks for agreeing with the body
 * (`MCP-Protocol-Version`, `Mcp-Method: tools/call`, `Mcp-Name` the tool's name) and no
 * `Mcp-Param-*` header. The arguments and `_meta` are plainToolCall's to check.
 * test/mcp-protocol.test.ts holds the answers so given equal to the SDK's.
 */
export function isPlainModernToolCall(body: unknown, revision: string | undefined, headers: Headers): boolean {
  if (!isPlainJsonRpcRequest(body) || body.method !== 'tools/call' || body.params === undefined) return false;
  if (revision !== MODERN_REVISION || headers.get('mcp-protocol-version') !== MODERN_REVISION || headers.get('mcp-method') !== 'tools/call') return false;
  if (headers.get('mcp-name') !== body.params.name) return false;
  for (const name of headers.keys()) if (name.startsWith('mcp-param-')) return false;
  return true;
}
