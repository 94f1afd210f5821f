/** The text cut to `chars` code points (an emoji is never cut in half), with "…" when cut. */
export function previewOf(text: string, chars: number): string {
  const points = Array.from(text);
  return points.length > chars ? `${points.slice(0, chars - 1).join('')}…` : text;
}
