/** A JSON object (not null, not an array), as parsed from a request or payload. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
