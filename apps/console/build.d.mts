/** The directory of an up-to-date console build, building it first if the sources changed. */
export function ensureConsoleBuilt(): Promise<string>;
