/**
 * `text` cut to at most `max` characters, counted as code points so a surrogate pair (an
 * emoji, a rare CJK character) is never split; `marker`, counted in `max`, ends a cut text.
 */
export function truncateText(text: string, max: number, marker = '…'): { text: string; truncated: boolean } {
  // A string's UTF-16 length is never less than its code points: most texts need no count.
  if (text.length <= max) return { text, truncated: false };
  const points = Array.from(text);
  if (points.length <= max) return { text, truncated: false };
  const room = Math.max(0, max - Array.from(marker).length);
  return { text: points.slice(0, room).join('') + marker, truncated: true };
}
