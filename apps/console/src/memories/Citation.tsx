/** The address when it is a web page (http or https); anything else is never made a link. */
export function webAddress(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A context's citation: its `url` as a link when it is a web address (a `javascript:` or
 * `data:` one stays text), named by its `title` when it has one; any other fields as JSON.
 * Every value is rendered as text.
 */
export function Citation({ citation }: { citation: Record<string, unknown> }) {
  const { url, title, ...rest } = citation;
  const href = webAddress(url);
  const name = typeof title === 'string' && title.trim() ? title : null;
  const shownUrl = typeof url === 'string' ? url : null;
  const others = { ...rest, ...(shownUrl === null && url !== undefined ? { url } : {}), ...(name === null && title !== undefined ? { title } : {}) };
  return (
    <div className="citation">
      {href ? (
        <p>
          Source:{' '}
          <a href={href} target="_blank" rel="noopener noreferrer">
            {name ?? shownUrl}
          </a>
          {name ? <span className="meta"> · {shownUrl}</span> : null}
        </p>
      ) : name || shownUrl ? (
        <p>
          Source: {name}
          {name && shownUrl ? ' · ' : ''}
          {shownUrl}
        </p>
      ) : null}
      {Object.keys(others).length ? <pre>{JSON.stringify(others, null, 2)}</pre> : null}
    </div>
  );
}
