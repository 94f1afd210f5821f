/**
 * The built-in secret rules, in the order they run. Specific formats come before the
 * context rules (headers, `NAME=value`) so `OPENAI_API_KEY=sk-…` is reported as an
 * `openai_key`, and the context rules step over values an earlier rule already replaced.
 *
 * Every pattern stays linear on hostile input: token patterns only start where the
 * previous character cannot belong to the token (so a long run is tried once, not at each
 * of its characters), and no quantified group can match the same text two ways.
 */
import { TOKEN_FORMATS } from './token-formats';

/**
 * Replaces one match (build markers with `marker`), or returns null to leave it alone.
 * A `[text, end]` pair replaces `input` from the match's start up to `end` instead, and
 * `[text, end, start]` from `start` (at or before the match; never before the previous
 * replacement's end).
 */
export type Replacer = (
  match: RegExpExecArray,
  input: string,
) => string | readonly [text: string, end: number] | readonly [text: string, end: number, start: number] | null;

export interface SecretRule {
  kind: string;
  /** Global; shared between calls, so the engine resets `lastIndex` itself. */
  pattern: RegExp;
  /** The pattern cannot match unless one of these occurs: a cheap `includes` check skips it. */
  triggers: readonly string[];
  /** Triggers are lowercase and compared with the lowercased text. */
  caseless?: boolean;
  /** Default: the whole match becomes the marker. */
  replace?: Replacer;
  /** May span lines. Every other rule stays within one line, so long text is scanned in line-aligned chunks. */
  multiline?: boolean;
}

export const marker = (kind: string): string => `[REDACTED:${kind}]`;
/** A marker in text, with its kind captured. */
export const MARKER_SOURCE = String.raw`\[REDACTED:([A-Za-z0-9_.-]+)\]`;

/** No rule matches fewer characters than this (`token=x`), so shorter strings are skipped. */
export const MIN_SECRET_LENGTH = 7;

// Key prefixes that make a `…_key` name a credential; `sort_key` or `primary_key` are not.
const KEY_QUALIFIERS = new Set([
  'api', 'secret', 'private', 'access', 'client', 'master', 'encryption', 'decryption', 'signing', 'sign', 'auth',
  'app', 'license', 'account', 'service', 'subscription', 'webhook', 'session', 'consumer', 'storage', 'admin',
  'deploy', 'ssh', 'hmac', 'jwt', 'shared', 'root', 'crypto',
]);
// An all-caps env name ending in `_KEY` is a credential unless it says otherwise.
const NON_SECRET_KEY_QUALIFIERS = new Set([
  'public', 'publishable', 'primary', 'foreign', 'sort', 'partition', 'cache', 'idempotency', 'unique', 'lookup',
  'hash', 'map', 'row', 'index', 'cursor', 'composite', 'routing', 'object', 'group', 'shard', 'dedup', 'dedupe',
]);

/**
 * Whether a JSON key or variable name holds a credential: `password`, `apiKey`,
 * `client_secret`, `GITHUB_TOKEN`, `aws_secret_access_key`… but not `max_tokens`,
 * `token_count`, `session_id`, `sort_key` or `public_key`.
 */
export function isSecretName(name: string): boolean {
  const last = name.slice(name.lastIndexOf('.') + 1);
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_\-\s]+/)
    .filter((word) => word !== '');
  const word = words.at(-1);
  if (word === undefined) return false;
  if (/(?:token|secret|password|passwd|passphrase)$/.test(word)) return true;
  if (word === 'authorization' || word === 'auth' || word === 'apikey') return true;
  if (word.endsWith('key') && word !== 'key') return KEY_QUALIFIERS.has(word.slice(0, -3));
  if (word !== 'key') return false;
  const qualifier = words.at(-2);
  if (qualifier === undefined) return false;
  if (KEY_QUALIFIERS.has(qualifier)) return true;
  return /^[A-Z0-9_]+$/.test(last) && !NON_SECRET_KEY_QUALIFIERS.has(qualifier);
}

// Values that are references, placeholders or types rather than secrets:
// `$TOKEN`, `${{ secrets.X }}`, `<your key>`, `process.env.X`, `getToken()`, `string`, `await`.
const REFERENCE =
  /^(?:[$%{<?:]|\[REDACTED:|(?:process\.env|os\.environ|os\.getenv|import\.meta|secrets|vars|env)[.[(]|[a-z_$][\w$]{0,30}(?:\.[A-Za-z_$][\w$]{0,40})+\)?;?$|[A-Za-z_$][\w$.]*\()/;
const NOT_VALUES = new Set([
  'string', 'str', 'number', 'int', 'integer', 'bool', 'boolean', 'bytes', 'any', 'unknown', 'object', 'null',
  'none', 'nil', 'undefined', 'true', 'false', 'optional', 'required', 'secretstr', 'redacted', 'await', 'new',
  'yield', 'typeof', 'function', 'async', 'lambda', 'this', 'self', 'return', 'require', 'import',
]);

export function isPlaceholder(raw: string): boolean {
  // Code ends a value with punctuation: `authorization: string;`, `f(token=pw)`.
  const value = raw.replace(/[\s,;)}\]]+$/, '');
  return value === '' || REFERENCE.test(value) || NOT_VALUES.has(value.toLowerCase()) || value.includes('${') || value.includes('{{');
}

// Token characters may not come just before a token (`task-list` is not `sk-…`), but an
// escaped line break may: text often arrives JSON-encoded inside a string (`…\nghp_…`).
// (Two lookbehinds rather than an alternation: irregexp scans much faster.)
const NOT_ESCAPED_BREAK = String.raw`(?<!(?<!\\)[nrt])`;
/** `\b` before a word, with the same allowance, for caseless patterns (`A-Z` would fold to `n`). */
const W = `(?<![A-MO-QSU-Za-mo-qsu-z0-9_])${NOT_ESCAPED_BREAK}`;

/** The same rule as a check, for the token scan: what precedes `at` cannot belong to a token. */
function startsToken(text: string, at: number): boolean {
  if (at === 0) return true;
  const previous = text.charCodeAt(at - 1);
  if (!isTokenChar(previous)) return true;
  return (previous === 0x6e || previous === 0x72 || previous === 0x74) && text.charCodeAt(at - 2) === 0x5c;
}

// [A-Za-z0-9_-]
const isTokenChar = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d;

interface CompiledFormat {
  kind: string;
  sticky: RegExp;
  back: number;
  accept?: (token: string) => boolean;
}

const escapeLiteral = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// Per prefix, the formats to try where it occurs: its own, then those of any shorter prefix
// it starts with (at `sk-ant-`, Anthropic, then OpenAI, which refuses it).
const FORMATS_AT = new Map<string, CompiledFormat[]>();
{
  const byPrefix = new Map<string, CompiledFormat[]>();
  for (const format of TOKEN_FORMATS) {
    const compiled: CompiledFormat = {
      kind: format.kind,
      sticky: new RegExp(format.pattern.source, 'y'),
      back: format.back ?? 0,
      ...(format.accept ? { accept: format.accept } : {}),
    };
    for (const prefix of format.prefixes) byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), compiled]);
  }
  const prefixes = [...byPrefix.keys()].sort((a, b) => b.length - a.length);
  for (const prefix of prefixes) {
    FORMATS_AT.set(prefix, prefixes.filter((other) => prefix.startsWith(other)).flatMap((other) => byPrefix.get(other) ?? []));
  }
}
// Longest first, so the alternation reports the most specific prefix at a position.
const PREFIX_SCAN = new RegExp([...FORMATS_AT.keys()].map(escapeLiteral).join('|'), 'g');

const tokenAt: Replacer = (m, input) => {
  const formats = FORMATS_AT.get(m[0]) ?? [];
  for (const format of formats) {
    const start = m.index - format.back;
    if (start < 0 || !startsToken(input, start)) continue;
    format.sticky.lastIndex = start;
    const found = format.sticky.exec(input);
    if (found === null || (format.accept && !format.accept(found[0]))) continue;
    // The token may begin before the prefix: give back what was already copied.
    return [marker(format.kind), start + found[0].length, start] as const;
  }
  return null;
};

/** Every prefixed token format (token-formats.ts) in one pass. */
const TOKEN_SCAN: SecretRule = { kind: 'token', pattern: PREFIX_SCAN, triggers: [], replace: tokenAt };

const PEM_BODY = String.raw`[A-Za-z0-9+/=\s\\:,.]*(?:-(?!----)[A-Za-z0-9+/=\s\\:,.]*)*`;
const PEM_LABEL = '[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----';

// The separator between a name and its value: `=`, `: `, `:=`, `=>`, with the name's
// closing quote (possibly JSON-escaped). Not `==`, `=~`, `::` or `://`.
const SEP = String.raw`\\*["']?[ \t]*(?::=|=>|=(?![=~])|:(?![:/]))[ \t]*`;
// A quoted value (up to the same quote), or an unquoted run that stops at whitespace,
// quotes, an escape such as `\n` (text often arrives JSON-encoded) and at `&name=` (the
// next query parameter). `…` never belongs to a value: it opens the truncation marker.
// The run is read in two steps: a bounded look to decide, then the rest once accepted,
// so a dense run of rejected candidates (`$x=password=$x=…`) costs linear time.
const RUN = String.raw`[^\s"'\x60\\…&]`;
const RUN_BREAK = String.raw`&(?![A-Za-z_][\w.-]*=)|\\(?![nrt"'\x60\\])`;
const quoted = (q: string): string => String.raw`${q}(?!\[REDACTED:)([^${q}\r\n…]{1,1024})${q}`;
const VALUE = new RegExp(
  String.raw`\\*(?:${quoted('"')}|${quoted("'")}|${quoted('\x60')})|\\*["'\x60]?(?![\[{(<=>|])((?:${RUN}|${RUN_BREAK}){1,256})`,
  'y',
);
const BARE_REST = new RegExp(`${RUN}*(?:(?:${RUN_BREAK})${RUN}*)*`, 'y');

const HEADER_SCHEMES = new Set([
  'basic', 'bearer', 'digest', 'token', 'bot', 'negotiate', 'ntlm', 'aws4-hmac-sha256', 'oauth', 'apikey', 'key',
  'dpop', 'sso-key', 'splunk', 'hoba', 'mutual',
]);

const authorizationHeader: Replacer = (m) => {
  const [name, sep, value] = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
  // `'Bearer ' + token` is a scheme with the credentials elsewhere.
  if (isPlaceholder(value.trim()) || HEADER_SCHEMES.has(value.trim().toLowerCase())) return null;
  const scheme = /^([A-Za-z0-9-]+)[ \t]+(\S.*)$/.exec(value);
  if (scheme?.[1] !== undefined && scheme[2] !== undefined && HEADER_SCHEMES.has(scheme[1].toLowerCase())) {
    if (isPlaceholder(scheme[2].trim())) return null;
    const kind = scheme[1].toLowerCase() === 'bearer' ? 'bearer' : 'authorization_header';
    return `${name}${sep}${scheme[1]} ${marker(kind)}`;
  }
  return `${name}${sep}${marker('authorization_header')}`;
};

const keepGroups = (kind: string, keep: number): Replacer => (m) => {
  const value = m[keep + 1] ?? '';
  if (isPlaceholder(value)) return null;
  return m.slice(1, keep + 1).join('') + marker(kind);
};

// Outside a header, `Bearer` is often prose ("Bearer authentication"): a token has a digit or is long.
const bearer: Replacer = (m) => {
  const value = m[2] ?? '';
  if (value.length < 8 || !(/\d/.test(value) || value.length >= 20)) return null;
  return `${m[1] ?? ''}${marker('bearer')}`;
};

const assignment: Replacer = (m, input) => {
  let start = m.index;
  while (start > 0 && start > m.index - 128 && /[A-Za-z0-9_.-]/.test(input.charAt(start - 1))) {
    if (input.charAt(start - 2) === '\\' && /[nrt]/.test(input.charAt(start - 1))) break;
    start--;
  }
  if (!isSecretName(input.slice(start, m.index) + (m[1] ?? ''))) return null;
  const valueAt = m.index + m[0].length;
  VALUE.lastIndex = valueAt;
  const v = VALUE.exec(input);
  if (v === null) return null;
  // A JSON-escaped closing quote (`\"`) is not part of the value.
  const quoted = (v[1] ?? v[2] ?? v[3])?.replace(/\\+$/, '');
  let bare = v[4] ?? '';
  // Code keeps its punctuation: `connect(password=pw)` ends the value before `)`.
  const value = quoted ?? bare.replace(/[,;)}\]]+$/, '');
  if (isPlaceholder(value)) return null;
  let end = valueAt + v[0].length;
  if (quoted === undefined && bare.length === 256) {
    BARE_REST.lastIndex = end;
    const rest = BARE_REST.exec(input)?.[0] ?? '';
    bare += rest;
    end += rest.length;
  }
  const at = quoted === undefined ? end - bare.length : valueAt + v[0].lastIndexOf(quoted);
  const kept = quoted === undefined ? bare.slice(bare.replace(/[,;)}\]]+$/, '').length) : input.slice(at + quoted.length, end);
  return [input.slice(m.index, at) + marker('assignment') + kept, end];
};

export const SECRET_RULES: readonly SecretRule[] = [
  {
    // Tags go too: the whole block becomes one marker. An unclosed tag hides the rest of the string.
    kind: 'private',
    pattern: /<private>[\s\S]*?(?:<\/private>|$)/gi,
    triggers: ['<private>'],
    caseless: true,
    multiline: true,
  },
  {
    kind: 'private_key',
    pattern: new RegExp(`-----BEGIN${PEM_LABEL}${PEM_BODY}(?:-----END${PEM_LABEL})?`, 'g'),
    triggers: ['PRIVATE KEY'],
    multiline: true,
  },
  TOKEN_SCAN,
  {
    kind: 'aws_secret_access_key',
    pattern: new RegExp(String.raw`((?:aws[ _-]?)?secret[ _-]?access[ _-]?key)(${SEP}\\*["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`, 'gi'),
    triggers: ['secret'],
    caseless: true,
    replace: keepGroups('aws_secret_access_key', 2),
  },
  {
    // Keeps scheme, user and host; a password may contain a raw `@`, so the last one ends it.
    kind: 'url_credentials',
    pattern: /(?<=[A-Za-z0-9])(:\/\/[^\s:/?#@"'<>[\]\\…]{0,256}:)(?!\[REDACTED:)([^\s/?#"'<>[\]\\…]{1,512})@/g,
    triggers: ['://'],
    replace: (m) => `${m[1] ?? ''}${marker('url_credentials')}@`,
  },
  {
    kind: 'authorization_header',
    pattern: new RegExp(String.raw`${W}((?:proxy-)?authorization)(\\*["']?[ \t]*:[ \t]*\\*(?:f?["'\x60])?)([^\r\n"'\x60\\…]{1,2048})`, 'gi'),
    triggers: ['authorization'],
    caseless: true,
    replace: authorizationHeader,
  },
  {
    kind: 'api_key_header',
    pattern: new RegExp(
      String.raw`${W}(x-api-key|x-goog-api-key|x-auth-token|x-functions-key|ocp-apim-subscription-key|api-key)(\\*["']?[ \t]*:[ \t]*\\*(?:f?["'\x60])?)([^\s"'\x60\\,;…]{1,1024})`,
      'gi',
    ),
    triggers: ['api-key', 'auth-token', 'functions-key', 'subscription-key'],
    caseless: true,
    replace: keepGroups('api_key_header', 2),
  },
  {
    kind: 'bearer',
    pattern: new RegExp(String.raw`${W}(bearer[ \t]+)(?!\[REDACTED:)([A-Za-z0-9._~+/-]+=*)`, 'gi'),
    triggers: ['bearer'],
    caseless: true,
    replace: bearer,
  },
  {
    kind: 'assignment',
    pattern: new RegExp(`(token|secret|password|passwd|passphrase|key)${SEP}`, 'gi'),
    triggers: ['token', 'secret', 'passw', 'passphrase', 'key'],
    caseless: true,
    replace: assignment,
  },
];

/** Every kind a built-in rule can write into a marker (`[REDACTED:<kind>]`). */
export const SECRET_KINDS: readonly string[] = [
  ...new Set([...SECRET_RULES.filter((rule) => rule !== TOKEN_SCAN).map((rule) => rule.kind), ...TOKEN_FORMATS.map((format) => format.kind)]),
];
