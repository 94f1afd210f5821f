/**
 * Every hook payload passes through here before it reaches the database, the archive or a
 * log: secrets become `[REDACTED:<kind>]` and oversized strings are cut in the middle.
 *
 * The output is a fixed point: sanitizing it again changes nothing and counts nothing,
 * because a ledger rebuild re-reads archived (already sanitized) payloads and must get
 * the same events.
 */
import { Buffer } from 'node:buffer';
import { isSecretName, marker, MARKER_SOURCE, MIN_SECRET_LENGTH, SECRET_RULES, type SecretRule } from './secret-patterns';

export const MAX_STRING_BYTES = 64 * 1024;

export interface SanitizeReport {
  redactions: Record<string, number>;
  truncations: number;
  truncatedBytes: number;
}

export interface Sanitized<T> {
  value: T;
  report: SanitizeReport;
}

export interface RedactionPattern {
  kind: string;
  pattern: RegExp;
}

export interface Sanitizer {
  /** Deep-copies and sanitizes any JSON value (objects, arrays, strings; numbers/booleans/null pass through). */
  sanitize<T>(value: T): Sanitized<T>;
  /** Redacts secrets in one string (no truncation) — used to scrub log lines and error messages. */
  redactText(text: string): string;
}

const TRUNCATION_SOURCE = String.raw`…\[truncated \d+ bytes\]…`;
const ONLY_MARKERS = new RegExp(`^(?:${MARKER_SOURCE})+$`);
const MARKER_KINDS = new RegExp(MARKER_SOURCE, 'g');
const ANY_MARKER = new RegExp(`${MARKER_SOURCE}|${TRUNCATION_SOURCE}`, 'g');
// A replacement can expose a match a rule earlier in the list would have taken; a second
// pass catches it. More than that has never been needed, and the bound keeps it cheap.
const MAX_PASSES = 3;
// Rebuilding a megabyte string once per matching rule dominates the cost of long tool
// output, so line-confined rules work on chunks of about this many characters.
const CHUNK_CHARS = 16 * 1024;
// Keys and short values repeat across events (`cwd`, `tool_name`, `Bash`…): remember the
// ones that needed nothing. Bounded, and only ever holds text with no secret in it.
const MEMO_LIMIT = 4096;
const MEMO_CHARS = 128;
// Room left at each cut for a fresh redaction (a marker outgrows its secret by < 32 bytes).
const CUT_SLACK = 64;

const truncationMarker = (bytes: number): string => `…[truncated ${bytes} bytes]…`;

export function createSanitizer(options: { extraPatterns?: readonly RedactionPattern[]; maxStringBytes?: number } = {}): Sanitizer {
  const maxBytes = options.maxStringBytes ?? MAX_STRING_BYTES;
  const extraRules = (options.extraPatterns ?? []).map(toRule);
  // Operator patterns run on the whole text before the built-in formats, so their kind
  // wins on overlap, and they may span lines.
  const wholeRules = [...SECRET_RULES.filter((rule) => rule.multiline), ...extraRules];
  const lineRules = SECRET_RULES.filter((rule) => !rule.multiline);
  const extra = new Set(extraRules);
  const minLength = extraRules.length > 0 ? 1 : MIN_SECRET_LENGTH;
  const clean = new Set<string>();
  const secretNames = new Map<string, boolean>();

  function redact(text: string): string {
    if (text.length < minLength) return text;
    const memo = text.length <= MEMO_CHARS;
    if (memo && clean.has(text)) return text;
    let current = text;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const next = inChunks(applyRules(current, wholeRules, extra), lineRules, extra);
      if (next === current) break;
      current = next;
    }
    if (memo && current === text) {
      if (clean.size >= MEMO_LIMIT) clean.clear();
      clean.add(text);
    }
    return current;
  }

  function isSecretField(key: string): boolean {
    let secret = secretNames.get(key);
    if (secret === undefined) {
      secret = isSecretName(key);
      if (secretNames.size >= MEMO_LIMIT) secretNames.clear();
      if (key.length <= MEMO_CHARS) secretNames.set(key, secret);
    }
    return secret;
  }

  function sanitizeString(text: string, report: SanitizeReport): string {
    const redacted = redact(text);
    let result = redacted;
    const bytes = redacted.length * 3 <= maxBytes ? 0 : Buffer.byteLength(redacted, 'utf8');
    if (bytes > maxBytes) {
      const cut = truncate(redacted, bytes, maxBytes);
      // The cut makes new boundaries (a token run now starts right after the marker):
      // redact once more so the result stays a fixed point. `truncate` leaves room for it.
      result = redact(cut.text);
      let removed = cut.removed;
      const resultBytes = Buffer.byteLength(result, 'utf8');
      if (resultBytes > maxBytes) ({ text: result, removed } = truncate(result, resultBytes, maxBytes));
      report.truncations++;
      report.truncatedBytes += removed;
    }
    if (result !== text) countMarkers(report, text, result);
    return result;
  }

  return {
    sanitize<T>(value: T): Sanitized<T> {
      const report: SanitizeReport = { redactions: {}, truncations: 0, truncatedBytes: 0 };
      const field = (text: string): string => {
        if (ONLY_MARKERS.test(text)) return text;
        countMarkers(report, text, marker('secret_field'));
        return marker('secret_field');
      };
      const copy = deepSanitize(value, (text) => sanitizeString(text, report), isSecretField, field);
      return { value: copy as T, report };
    },
    redactText: redact,
  };
}

/** How many `[REDACTED:<kind>]` markers a text carries. */
export function countRedactionMarkers(text: string): number {
  return text.includes('[REDACTED:') ? [...text.matchAll(MARKER_KINDS)].length : 0;
}

/**
 * Counts the markers a sanitization added, which is what the value carries: a secret
 * in a cut-away middle leaves none, a marker swallowed by a wider redaction neither.
 * The ledger rebuild counts the same markers when it reads the archive.
 */
function countMarkers(report: SanitizeReport, before: string, after: string): void {
  const added: Record<string, number> = {};
  for (const [, kind = ''] of after.matchAll(MARKER_KINDS)) added[kind] = (added[kind] ?? 0) + 1;
  if (before.includes('[REDACTED:')) for (const [, kind = ''] of before.matchAll(MARKER_KINDS)) added[kind] = (added[kind] ?? 0) - 1;
  for (const [kind, count] of Object.entries(added)) if (count > 0) report.redactions[kind] = (report.redactions[kind] ?? 0) + count;
}

function toRule({ kind, pattern }: RedactionPattern): SecretRule {
  // A private copy: `lastIndex` is ours, and a sticky flag would stop the scan at the first miss.
  const flags = pattern.flags.replace(/[gy]/g, '');
  return { kind, pattern: new RegExp(pattern.source, `${flags}g`), triggers: [], multiline: true };
}

function applyRules(text: string, rules: readonly SecretRule[], extra: ReadonlySet<SecretRule>): string {
  // Triggers are checked against the text as it came in: a replacement only removes text
  // and adds markers, so outside the markers it brings no trigger that was not there.
  let lower: string | undefined;
  let current = text;
  for (const rule of rules) {
    const { triggers } = rule;
    if (triggers.length > 0) {
      const haystack = rule.caseless ? (lower ??= text.toLowerCase()) : text;
      let found = false;
      for (const trigger of triggers) if ((found = haystack.includes(trigger))) break;
      if (!found) continue;
    }
    // An operator's pattern knows nothing of our markers: it only sees the text between them.
    current = extra.has(rule) ? outsideMarkers(current, rule) : applyRule(current, rule);
  }
  return current;
}

function inChunks(text: string, rules: readonly SecretRule[], extra: ReadonlySet<SecretRule>): string {
  if (text.length <= 2 * CHUNK_CHARS) return applyRules(text, rules, extra);
  const parts: string[] = [];
  let changed = false;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start + CHUNK_CHARS);
    const end = newline < 0 ? text.length : newline + 1;
    const chunk = text.slice(start, end);
    const out = applyRules(chunk, rules, extra);
    changed ||= out !== chunk;
    parts.push(out);
    start = end;
  }
  return changed ? parts.join('') : text;
}

function applyRule(text: string, rule: SecretRule): string {
  const { pattern } = rule;
  pattern.lastIndex = 0;
  const parts: string[] = [];
  let copied = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    const replacement = rule.replace ? rule.replace(match, text) : marker(rule.kind);
    if (replacement === null) {
      // A rejected candidate may still hide a real match that starts inside it.
      pattern.lastIndex = match.index + 1;
      continue;
    }
    const [replaced, end, start = match.index] = typeof replacement === 'string' ? [replacement, match.index + match[0].length] : replacement;
    if (start < copied) {
      // It would reach back into the previous replacement.
      pattern.lastIndex = match.index + 1;
      continue;
    }
    parts.push(text.slice(copied, start), replaced);
    copied = end;
    pattern.lastIndex = end;
  }
  pattern.lastIndex = 0;
  if (parts.length === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

function outsideMarkers(text: string, rule: SecretRule): string {
  const parts: string[] = [];
  let copied = 0;
  ANY_MARKER.lastIndex = 0;
  for (let match = ANY_MARKER.exec(text); match !== null; match = ANY_MARKER.exec(text)) {
    parts.push(applyRule(text.slice(copied, match.index), rule), match[0]);
    copied = match.index + match[0].length;
  }
  parts.push(applyRule(text.slice(copied), rule));
  return parts.join('');
}

/**
 * Keeps about half of the budget from each end, cut on UTF-8 character boundaries (so
 * never inside a surrogate pair) and outside our markers. `removed` counts UTF-8 bytes.
 */
function truncate(text: string, bytes: number, maxBytes: number): { text: string; removed: number } {
  const buffer = Buffer.from(text, 'utf8');
  // Sized for the longest count the marker can show, so the real one always fits.
  const budget = Math.max(0, maxBytes - Buffer.byteLength(truncationMarker(bytes), 'utf8') - CUT_SLACK);
  let headEnd = Math.floor(budget / 2);
  let tailStart = buffer.length - (budget - headEnd);
  while (headEnd > 0 && isContinuation(buffer[headEnd])) headEnd--;
  while (tailStart < buffer.length && isContinuation(buffer[tailStart])) tailStart++;
  headEnd = outsideMarker(buffer, headEnd, 'start');
  tailStart = outsideMarker(buffer, tailStart, 'end');
  const removed = tailStart - headEnd;
  return { text: buffer.toString('utf8', 0, headEnd) + truncationMarker(removed) + buffer.toString('utf8', tailStart), removed };
}

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/** A cut at `at` inside `[REDACTED:…]` moves to the marker's start (head) or past its end (tail). */
function outsideMarker(buffer: Buffer, at: number, side: 'start' | 'end'): number {
  if (at <= 0) return at;
  const open = buffer.lastIndexOf('[REDACTED:', at - 1);
  if (open < 0 || at - open > 64) return at;
  const close = buffer.indexOf(']', open);
  if (close < 0 || close < at) return at;
  return side === 'start' ? open : close + 1;
}

interface Frame {
  source: unknown[] | Record<string, unknown>;
  target: unknown[] | Record<string, unknown>;
  /** Object keys; null for an array. */
  keys: string[] | null;
  length: number;
  next: number;
}

function openFrame(source: object): Frame {
  if (Array.isArray(source)) {
    const array = source as unknown[];
    return { source: array, target: new Array<unknown>(array.length), keys: null, length: array.length, next: 0 };
  }
  const keys = Object.keys(source);
  return { source: source as Record<string, unknown>, target: {}, keys, length: keys.length, next: 0 };
}

/**
 * Copies with an explicit stack: JSON.parse accepts nesting far deeper than the call
 * stack would allow a recursive walk.
 */
function deepSanitize(
  value: unknown,
  clean: (text: string) => string,
  isSecretField: (key: string) => boolean,
  redactField: (text: string) => string,
): unknown {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? clean(value) : value;
  const root = openFrame(value);
  const stack: Frame[] = [root];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.length) {
      stack.pop();
      continue;
    }
    const index = frame.next++;
    const key = frame.keys?.[index];
    const child = key === undefined ? (frame.source as unknown[])[index] : (frame.source as Record<string, unknown>)[key];
    let copy: unknown = child;
    if (typeof child === 'string') {
      // The key says what the value is, even when nothing in the value looks secret.
      copy = key !== undefined && child !== '' && isSecretField(key) ? redactField(child) : clean(child);
    } else if (typeof child === 'object' && child !== null) {
      const childFrame = openFrame(child);
      stack.push(childFrame);
      copy = childFrame.target;
    }
    if (key === undefined) (frame.target as unknown[])[index] = copy;
    else define(frame.target as Record<string, unknown>, clean(key), copy);
  }
  return root.target;
}

/**
 * Two keys can redact to the same marker: the later one gets a suffix rather than
 * overwrite the first. `__proto__` stays an own property, as JSON.parse makes it.
 */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  let name = key;
  for (let n = 2; Object.hasOwn(target, name); n++) name = `${key}~${n}`;
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
