/**
 * Time, as every layer takes it: injected, so tests move it and the sealer, the doctor and
 * the services agree on "now". Below everything: it imports nothing of the app.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
