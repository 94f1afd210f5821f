// Records the SQL statements this process sends through mysql2, for the shard-readiness
// check (apps/api/test/support/sql-tenancy-setup.ts, docs/scaling.md). Plain JavaScript so
// that processes the tests spawn (`pnpm start`, `pnpm cli`) load it with
// NODE_OPTIONS=--import: mysql2 publishes every query on the diagnostics channels
// `mysql2:query` and `mysql2:execute`, and the server bundles its own copy of mysql2, so a
// channel (shared by name within a process) reaches it where patching a module would not.
//
// Statements are kept as shapes: literals become `?` and repeated value tuples one tuple,
// so no memory content is written anywhere and each shape is checked once.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

const CHANNELS = ['tracing:mysql2:query:start', 'tracing:mysql2:execute:start'];

/**
 * Back-quoted identifiers (kept), quoted strings, hex literals and numbers (each becomes `?`),
 * in one pass of the regex engine: a statement can carry megabytes of payload.
 */
const TOKENS = /`[^`]*`|'[^'\\]*(?:(?:\\[^]|'')[^'\\]*)*'|"[^"\\]*(?:(?:\\[^]|"")[^"\\]*)*"|(?<![\w$])[xX]'[0-9a-fA-F]*'|(?<![\w$.])(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/g;

/** The statement with every literal (string, hex, number) replaced by `?`. */
export function statementShape(sql) {
  const out = sql.replace(TOKENS, (token) => (token.startsWith('`') ? token : '?'));
  // Constants in value positions (`-1`, NULL, true) are literals too; then `(?, ?), (?, ?)…`
  // → `(?, ?)` and `in (?, ?, ?)` → `in (?)`: one shape per statement, whatever the row count.
  return out
    .replace(/([(,=]\s*)(?:-\s*\?|null\b|true\b|false\b)/gi, '$1?')
    .replace(/\((\s*(?:\?|default)\s*(?:,\s*(?:\?|default)\s*)*)\)(?:\s*,\s*\(\s*(?:\?|default)\s*(?:,\s*(?:\?|default)\s*)*\))+/gi, '($1)')
    .replace(/\bin\s*\(\s*\?(?:\s*,\s*\?)+\s*\)/gi, 'in (?)');
}

/**
 * Calls `onShape(shape)` once for each new statement shape this process sends, until the
 * returned function is called.
 */
export function recordStatements(onShape) {
  const seen = new Set();
  const handler = (context) => {
    if (typeof context?.query !== 'string') return;
    const shape = statementShape(context.query);
    if (seen.has(shape)) return;
    seen.add(shape);
    // A subscriber's exception would surface as an uncaught exception in the process
    // (diagnostics_channel): recording must never break the statement it records.
    try {
      onShape(shape);
    } catch {
      // e.g. a process that outlives its test file, whose record directory is gone
    }
  };
  for (const channel of CHANNELS) subscribe(channel, handler);
  return () => {
    for (const channel of CHANNELS) unsubscribe(channel, handler);
  };
}
