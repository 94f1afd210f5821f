import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, API_KEY_SCOPES, type ApiKey, type ApiKeyScope } from '../api';
import { DataTable, type Column } from '../ui/DataTable';
import { ConfirmDialog } from '../ui/Dialog';
import { ErrorAlert } from '../ui/QueryState';
import { Time } from '../ui/Time';

function CreateKeyForm({ onCreated }: { onCreated: (key: string) => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['memory:read', 'memory:write']);
  const create = useMutation({
    mutationFn: api.createKey,
    onSuccess: (issued) => {
      setName('');
      onCreated(issued.key);
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, scopes });
  };
  const toggle = (scope: ApiKeyScope, on: boolean) => setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a key</h2>
      <label htmlFor={`${id}-name`}>Key name</label>
      <input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} />
      <fieldset>
        <legend>Scopes</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={(event) => toggle(scope, event.target.checked)} /> {scope}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={create.isPending || scopes.length === 0}>
        Create key
      </button>
      <ErrorAlert error={create.error} />
    </form>
  );
}

function NewKey({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="panel" role="region" aria-label="New key">
      <p>
        <strong>Copy the key now: it is not shown again.</strong>
      </p>
      <p>
        <label htmlFor="new-key">New key</label>
        <input id="new-key" readOnly value={secret} onFocus={(event) => event.target.select()} />
      </p>
      <div className="actions">
        <button type="button" onClick={() => navigator.clipboard.writeText(secret).then(() => setCopied(true))}>
          Copy key
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      {copied ? <p role="status">Copied.</p> : null}
    </div>
  );
}

const KEY_COLUMNS: Column<ApiKey>[] = [
  { header: 'Name', cell: (key) => key.name },
  { header: 'Prefix', cell: (key) => <code>{key.prefix}…</code> },
  { header: 'Scopes', cell: (key) => key.scopes.join(', ') },
  { header: 'Last used', cell: (key) => (key.last_used_at ? <Time at={key.last_used_at} /> : 'never') },
];

export function KeysScreen() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: api.listKeys });
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useMutation({
    mutationFn: api.revokeKey,
    onSuccess: () => {
      setRevoking(null);
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      {secret ? <NewKey secret={secret} onDone={() => setSecret(null)} /> : <CreateKeyForm onCreated={setSecret} />}
      <h2>Your keys</h2>
      <ErrorAlert error={keys.error} />
      <DataTable
        caption="Your keys"
        rows={keys.data ?? []}
        rowKey={(key) => key.id}
        columns={[
          ...KEY_COLUMNS,
          {
            header: 'Status',
            cell: (key) =>
              key.revoked_at ? (
                'revoked'
              ) : (
                <button type="button" className="danger" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                  Revoke
                </button>
              ),
          },
        ]}
      />
      {revoking ? (
        <ConfirmDialog
          title={`Revoke ${revoking.name}?`}
          message={<p>Requests with this key are refused from now on. If it is the key you signed in with, you are signed out.</p>}
          confirmLabel="Revoke key"
          busy={revoke.isPending}
          error={revoke.error?.message ?? null}
          onClose={() => setRevoking(null)}
          onConfirm={() => revoke.mutate(revoking.id)}
        />
      ) : null}
    </section>
  );
}
