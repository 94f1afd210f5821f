/**
 * Rendering of hook payload fragments (tool inputs, tool outputs, odd event fields) as
 * readable, searchable text.
 *
 * Everything here is pure and deterministic, and never depends on the key order of the
 * objects it is given (the archive may store payloads as canonical JSON with sorted keys,
 * and the ledger rebuild must produce the same content byte for byte): known fields are
 * read in a fixed order, the rest in sorted order.
 */

import { isRecord } from '../../json';

/** The most content one event keeps (UTF-16 code units). */
export const MAX_CONTENT_CHARS = 64 * 1024;
const MAX_INPUT_CHARS = 24 * 1024;
const MAX_OUTPUT_CHARS = 36 * 1024;
const MAX_FIELD_CHARS = 16 * 1024;
const MAX_DEPTH = 6;

type Json = unknown;

export { isRecord };

/**
 * A JSON object or array some harnesses pass as text (Cursor's MCP `tool_input`, Copilot's
 * `toolArgs`): its value when it parses, else the value as it is.
 */
export function parseJsonText(value: Json): Json {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return value;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return value;
  }
}

/** A non-empty string, or undefined. */
export function str(value: Json): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Cuts `text` to at most `max` code units, keeping its head and tail around a marker. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = (omitted: number) => `\n… [${omitted} chars omitted] …\n`;
  // The marker's length depends on the count; a generous estimate keeps the result ≤ max.
  const room = Math.max(0, max - marker(text.length).length);
  let head = Math.ceil((room * 2) / 3);
  let tailStart = text.length - (room - head);
  // Never split a surrogate pair.
  if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head -= 1;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart += 1;
  return text.slice(0, head) + marker(tailStart - head) + text.slice(tailStart);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** JSON with object keys sorted at every level (a stable rendering of any JSON value). */
export function canonicalJson(value: Json, depth = 0): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (depth >= 32) return '"…"';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`;
  if (isRecord(value)) {
    const entries = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key], depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return 'null';
}

/** A scalar as text; objects and arrays as compact canonical JSON. */
function scalarOrJson(value: Json): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  return canonicalJson(value);
}

/**
 * `key: value` lines for the fields of `object` not in `skip`, in sorted key order.
 * Null, undefined and empty-string values are left out.
 */
export function renderFields(object: Record<string, unknown>, skip: ReadonlySet<string> = new Set()): string {
  return Object.keys(object)
    .filter((key) => !skip.has(key))
    .sort()
    .map((key) => [key, scalarOrJson(object[key])] as const)
    .filter(([, text]) => text !== '')
    .map(([key, text]) => `${key}: ${capText(text, MAX_FIELD_CHARS)}`)
    .join('\n');
}

/** The field that names what a tool acts on, in order of preference. */
const HEADLINE_FIELDS = [
  'command',
  'cmd',
  'file_path',
  'filePath',
  'absolute_path',
  'notebook_path',
  'pattern',
  'url',
  'query',
  'path',
  'description',
  'skill',
  'name',
  'prompt',
] as const;

function commandText(value: Json): string | undefined {
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  // Codex and others sometimes pass argv arrays: ["bash", "-lc", "npm test"].
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) return value.join(' ');
  return undefined;
}

/**
 * A tool's input as text: its headline field (command, file path, pattern, url, query…)
 * on the first line, then the other fields as `key: value` lines.
 */
export function renderToolInput(input: Json): string {
  let text: string;
  if (isRecord(input)) {
    const headlineKey = HEADLINE_FIELDS.find((key) => commandText(input[key]) !== undefined);
    const headline = headlineKey === undefined ? '' : (commandText(input[headlineKey]) ?? '');
    const rest = renderFields(input, new Set(headlineKey === undefined ? [] : [headlineKey]));
    text = [capText(headline, MAX_FIELD_CHARS), rest].filter((part) => part !== '').join('\n');
  } else if (Array.isArray(input)) {
    text = input.map((item) => renderToolInput(item)).filter((part) => part !== '').join('\n');
  } else {
    text = scalarOrJson(input);
  }
  return capText(text, MAX_INPUT_CHARS);
}

/** Fields of a tool result that carry its text, in the order they are rendered. */
const OUTPUT_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['stdout', ''],
  ['stderr', 'stderr: '],
  ['output', ''],
  ['result', ''],
  ['content', ''],
  ['text', ''],
  ['message', ''],
  ['error', 'error: '],
  ['file', ''],
  ['filenames', ''],
];

function renderOutputValue(value: Json, depth: number): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  if (depth >= MAX_DEPTH) return canonicalJson(value);
  if (Array.isArray(value)) {
    return value
      .map((item) => {
        // Content blocks: [{ type: 'text', text }, { type: 'image', … }]
        if (isRecord(item) && typeof item.type === 'string') {
          if (item.type === 'text' && typeof item.text === 'string') return item.text;
          if (item.type === 'image') return '[image]';
        }
        return renderOutputValue(item, depth + 1);
      })
      .filter((part) => part !== '')
      .join('\n');
  }
  if (isRecord(value)) {
    const parts: string[] = [];
    for (const [key, prefix] of OUTPUT_FIELDS) {
      const rendered = renderOutputValue(value[key], depth + 1);
      if (rendered !== '') parts.push(prefix + rendered);
    }
    if (value.interrupted === true) parts.push('(interrupted)');
    if (parts.length > 0) return parts.join('\n');
    return Object.keys(value).length === 0 ? '' : canonicalJson(value);
  }
  return '';
}

/**
 * A tool's result as text: strings as they are, content blocks by their text,
 * `{ stdout, stderr, interrupted }` and the like by their text fields, anything else as
 * canonical JSON.
 */
export function renderToolOutput(output: Json): string {
  return capText(renderOutputValue(output, 0), MAX_OUTPUT_CHARS);
}

/** `Bash: npm test` (+ detail lines). */
export function toolCallContent(toolName: string | null, input: Json): string {
  const rendered = renderToolInput(input);
  const name = toolName ?? 'tool';
  return rendered === '' ? name : `${name}: ${rendered}`;
}

/** The call followed by `→ output`, or by `✗ error` when the tool failed. */
export function toolResultContent(
  toolName: string | null,
  input: Json,
  result: { output?: Json; error?: string | undefined; interrupted?: boolean },
): string {
  const call = toolCallContent(toolName, input);
  if (result.error !== undefined || result.interrupted === true) {
    const error = capText(result.error ?? '', MAX_OUTPUT_CHARS);
    const label = result.interrupted === true ? '(interrupted)' : '';
    return `${call}\n✗ ${[label, error].filter((part) => part !== '').join(' ')}`;
  }
  const output = renderToolOutput(result.output);
  return `${call}\n→ ${output === '' ? '(no output)' : output}`;
}

const MIN_TIME = Date.UTC(2000, 0, 1);
const MAX_TIME = Date.UTC(2100, 0, 1);

/**
 * A timestamp from an ISO-8601 string, or epoch seconds or milliseconds (number or
 * digit string). Anything unparsable, or outside 2000–2100, gives null.
 */
export function parseTimestamp(value: Json): Date | null {
  let ms: number;
  if (typeof value === 'number') {
    ms = epochToMs(value);
  } else if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d{1,16}(\.\d+)?$/.test(text)) ms = epochToMs(Number(text));
    else if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(text)) ms = Date.parse(text);
    else return null;
  } else {
    return null;
  }
  if (!Number.isFinite(ms) || ms < MIN_TIME || ms >= MAX_TIME) return null;
  return new Date(Math.trunc(ms));
}

/** Values below 1e11 are taken as seconds (1e11 s is the year 5138), larger ones as ms. */
function epochToMs(value: number): number {
  if (!Number.isFinite(value)) return Number.NaN;
  return value < 1e11 ? value * 1000 : value;
}
