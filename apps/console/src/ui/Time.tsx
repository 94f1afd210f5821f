export function Time({ at }: { at: string }) {
  return <time dateTime={at}>{new Date(at).toLocaleString()}</time>;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/** "in 3 days", "5 minutes ago": rounded in the largest unit it reaches, as of when it is rendered. */
export function relativeTime(at: string, now = Date.now()): string {
  const difference = new Date(at).getTime() - now;
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(difference) >= ms) return format.format(Math.round(difference / ms), unit);
  }
  return format.format(Math.round(difference / 1000), 'second');
}

/** A time as a person says it ("in 3 days"), with the date and time after it. */
export function RelativeTime({ at }: { at: string }) {
  return (
    <>
      <time dateTime={at}>{relativeTime(at)}</time> ({new Date(at).toLocaleString()})
    </>
  );
}
