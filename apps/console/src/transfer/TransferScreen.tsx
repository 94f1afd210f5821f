import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, type MemoryFilters } from '../api';
import { ErrorAlert } from '../ui/QueryState';

type ExportScope = NonNullable<MemoryFilters['scope']>;

function ExportForm() {
  const id = useId();
  const [scope, setScope] = useState<ExportScope>('user');
  const [file, setFile] = useState<{ url: string; count: number } | null>(null);
  const exported = useMutation({ mutationFn: api.exportMemories, onSuccess: (made) => setFile({ url: URL.createObjectURL(made.file), count: made.count }) });
  useEffect(() => () => (file ? URL.revokeObjectURL(file.url) : undefined), [file]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFile(null);
    exported.mutate(scope);
  };
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Export</h2>
      <p>Your memories with their contexts, one JSON object per line (NDJSON).</p>
      <label htmlFor={`${id}-scope`}>Memories to export</label>
      <select id={`${id}-scope`} value={scope} onChange={(event) => setScope(event.target.value as ExportScope)}>
        <option value="user">My private memories</option>
        <option value="org">The org's shared memories</option>
        <option value="all">Both</option>
      </select>
      <button type="submit" disabled={exported.isPending}>
        Export memories
      </button>
      <ErrorAlert error={exported.error} />
      {file ? (
        <p role="status">
          Ready: <a href={file.url} download="memories.ndjson">Download memories.ndjson</a> ({file.count === 1 ? '1 memory' : `${file.count} memories`})
        </p>
      ) : null}
    </form>
  );
}

function ImportForm() {
  const id = useId();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const imported = useMutation({
    mutationFn: api.importMemories,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['memories'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) imported.mutate(file);
  };
  const summary = imported.data;
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import</h2>
      <p>An export of this service, or mem0 or supermemory exports. Importing the same file again adds nothing twice.</p>
      <label htmlFor={`${id}-file`}>NDJSON file</label>
      <input id={`${id}-file`} type="file" accept=".ndjson,.jsonl,application/x-ndjson" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
      <button type="submit" disabled={!file || imported.isPending}>
        Import memories
      </button>
      <ErrorAlert error={imported.error} />
      {summary ? (
        <div role="status">
          <p>
            Imported {summary.imported}, skipped {summary.skipped} already imported, {summary.failed} failed.
            {summary.complete ? '' : ` Stopped at line ${summary.last_line}: import the same file again to continue.`}
          </p>
          {summary.failures.length ? (
            <ul aria-label="Lines refused">
              {summary.failures.map((failure) => (
                <li key={failure.line}>
                  Line {failure.line}: {failure.detail}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

export function TransferScreen() {
  return (
    <section aria-labelledby="transfer-title">
      <h1 id="transfer-title">Export / import</h1>
      <ExportForm />
      <ImportForm />
    </section>
  );
}
