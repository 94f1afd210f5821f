/** How deeply a JSON request body may nest objects and arrays. */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `value` nests objects and arrays at most `limit` levels deep (a scalar is 0
 * levels, `{}` and `[]` one). Stops descending past the limit, so any depth is safe to ask.
 */
export function nestsWithin(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (limit === 0) return false;
  for (const child of Array.isArray(value) ? value : Object.values(value)) if (!nestsWithin(child, limit - 1)) return false;
  return true;
}

/**
 * Readies a parsed JSON body for storage, in place: strings and keys holding a lone
 * UTF-16 surrogate (valid JSON, but not text MySQL can store) get U+FFFD in its place — what
 * the database would have kept — so what is stored is what is answered. Returns the path of
 * the first value nested deeper than MAX_JSON_DEPTH (the body is then refused), else null.
 */
export function prepareJsonInput(body: unknown): string | null {
  const path: string[] = [];
  const visit = (node: object, depth: number): boolean => {
    if (depth > MAX_JSON_DEPTH) return false;
    const record = node as Record<string, unknown>;
    // An array's keys are its indexes ("0", "1", …), always well-formed.
    for (const key of Object.keys(record)) {
      let name = key;
      if (!key.isWellFormed()) {
        name = key.toWellFormed();
        record[name] = record[key];
        delete record[key];
      }
      const child = record[name];
      if (typeof child === 'string') {
        if (!child.isWellFormed()) record[name] = child.toWellFormed();
      } else if (child !== null && typeof child === 'object') {
        path.push(name);
        if (!visit(child, depth + 1)) return false;
        path.pop();
      }
    }
    return true;
  };
  if (body === null || typeof body !== 'object') return null;
  return visit(body, 1) ? null : path.slice(0, 8).join('.') + (path.length > 8 ? '…' : '');
}
