import type { Highlight } from '../api';

/** The content with the matched words in <mark>: text nodes only, never HTML. */
export function Highlighted({ text, highlights }: { text: string; highlights: Highlight[] }) {
  const parts: (string | { mark: string })[] = [];
  let at = 0;
  for (const { start, end } of [...highlights].sort((a, b) => a.start - b.start)) {
    if (start < at || end <= start || end > text.length) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push({ mark: text.slice(start, end) });
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts.map((part, index) => (typeof part === 'string' ? part : <mark key={index}>{part.mark}</mark>))}</>;
}
