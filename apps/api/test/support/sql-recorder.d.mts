/** The statement with every literal replaced by `?` (see sql-recorder.mjs). */
export function statementShape(sql: string): string;
/** Calls `onShape` once per new statement shape this process sends; returns a function that stops recording. */
export function recordStatements(onShape: (shape: string) => void): () => void;
