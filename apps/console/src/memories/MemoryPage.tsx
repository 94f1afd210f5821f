import { useId, useState, type FormEvent } from 'react';
import { MemoryBankError, type Memory } from '../api';
import { Link, navigate } from '../router';
import { ConfirmDialog } from '../ui/Dialog';
import { RelativeTime, Time } from '../ui/Time';
import { Citation } from './Citation';
import { MemoryHistory, SupersededNotice } from './MemoryHistory';
import { ExpiryForm, PinToggle } from './MemoryLifecycle';
import { changedMeanwhile, parseTags, useDeleteMemory, useMemory, useMemoryHistory, useUpdateMemory } from './queries';

function EditMemoryForm({ memory, etag, onDone }: { memory: Memory; etag: string | null; onDone: () => void }) {
  const id = useId();
  const [content, setContent] = useState(memory.content);
  const [tags, setTags] = useState(memory.tags.join(', '));
  // The version the edit started from: a change made meanwhile keeps being refused until Cancel shows it.
  const [base] = useState(etag);
  const update = useUpdateMemory(memory.id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ body: { content, tags: parseTags(tags) }, etag: base }, { onSuccess: onDone });
  };
  const conflict = changedMeanwhile(update.error);
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Edit memory</h2>
      <label htmlFor={`${id}-content`}>Content</label>
      <textarea id={`${id}-content`} rows={6} value={content} onChange={(event) => setContent(event.target.value)} required />
      <label htmlFor={`${id}-tags`}>Tags (comma-separated)</label>
      <input id={`${id}-tags`} value={tags} onChange={(event) => setTags(event.target.value)} />
      <div className="actions">
        <button type="submit" disabled={update.isPending}>
          Save changes
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
      {update.error ? <p role="alert">{conflict ? 'Someone changed this memory meanwhile. Cancel to see their version, then edit again.' : update.error.message}</p> : null}
    </form>
  );
}

function UseFacts({ memory }: { memory: Memory }) {
  if (memory.use_count === 0) return <>not yet</>;
  return (
    <>
      {memory.use_count === 1 ? 'once' : `${memory.use_count} times`}
      {memory.last_used_at ? (
        <>
          , last <Time at={memory.last_used_at} />
        </>
      ) : null}
    </>
  );
}

/** What Delete removes: the newest version of a chain takes every older one with it; an older version goes alone. */
function deletionOf(memory: Memory, versions: Memory[] | undefined): string {
  const older = versions ? versions.length - 1 : 0;
  if (memory.superseded_by !== null) return 'Only this older version is deleted, with its contexts; the newer versions stay.';
  if (older === 0) return 'It is deleted with its contexts.';
  return `It is deleted with its contexts, and so ${older === 1 ? 'is its older version' : `are its ${older} older versions`} (see History).`;
}

/** A memory's page; another memory's (a link from its history) starts afresh. */
export function MemoryPage({ id }: { id: string }) {
  return <MemoryView key={id} id={id} />;
}

function MemoryView({ id }: { id: string }) {
  const memory = useMemory(id);
  const history = useMemoryHistory(id);
  const remove = useDeleteMemory();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);

  if (memory.isPending) return <p role="status">Loading…</p>;
  if (memory.error) {
    return (
      <section aria-labelledby="memory-title">
        <h1 id="memory-title">Memory</h1>
        <p role="alert">{memory.error instanceof MemoryBankError && memory.error.status === 404 ? 'No such memory.' : memory.error.message}</p>
        <Link to="/memories">Back to memories</Link>
      </section>
    );
  }
  const { memory: m, etag } = memory.data;
  const current = m.superseded_by === null;
  return (
    <section aria-labelledby="memory-title">
      <p>
        <Link to="/memories">← Memories</Link>
      </p>
      <h1 id="memory-title">Memory</h1>
      <SupersededNotice memory={m} versions={history.data} />
      {m.pinned ? (
        <p>
          <span className="badge">Pinned</span> <span className="meta">given to agents first when a session starts; kept by retention</span>
        </p>
      ) : null}
      {editing ? (
        <EditMemoryForm memory={m} etag={etag} onDone={() => setEditing(false)} />
      ) : (
        <>
          <p className="content full">{m.content}</p>
          <dl className="facts">
            <dt>Id</dt>
            <dd>
              <code>{m.id}</code>
            </dd>
            <dt>Visible to</dt>
            <dd>{m.scope === 'org' ? 'the whole org' : 'only its owner'}</dd>
            <dt>Saved through</dt>
            <dd>{m.source}</dd>
            <dt>Tags</dt>
            <dd>{m.tags.length ? m.tags.join(', ') : 'none'}</dd>
            <dt>Created</dt>
            <dd>
              <Time at={m.created_at} />
            </dd>
            <dt>Updated</dt>
            <dd>
              <Time at={m.updated_at} />
            </dd>
            <dt>Expires</dt>
            <dd>{m.expires_at ? <RelativeTime at={m.expires_at} /> : 'never'}</dd>
            <dt>Used by agents</dt>
            <dd>
              <UseFacts memory={m} />
            </dd>
          </dl>
          <div className="actions">
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
            {/* A replaced version is never given to agents, so pinning it would do nothing. */}
            {current ? <PinToggle memory={m} etag={etag} /> : null}
            <button type="button" className="danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          </div>
        </>
      )}
      <MemoryHistory memory={m} versions={history.data} />
      {editing ? null : <ExpiryForm memory={m} etag={etag} />}
      <h2 id="contexts-title">Contexts</h2>
      {m.contexts.length === 0 ? (
        <p>No contexts.</p>
      ) : (
        <ul className="contexts" aria-labelledby="contexts-title">
          {m.contexts.map((context) => (
            <li key={context.id}>
              <p className="content">{context.snippet}</p>
              <p className="meta">
                {context.origin}
                {context.conversation_id ? ` · conversation ${context.conversation_id}` : ''}
                {context.message_id ? ` · message ${context.message_id}` : ''} · <Time at={context.created_at} />
              </p>
              {context.citation ? <Citation citation={context.citation} /> : null}
            </li>
          ))}
        </ul>
      )}
      {confirming ? (
        <ConfirmDialog
          title="Delete this memory?"
          message={<p>{deletionOf(m, history.data)} This cannot be undone.</p>}
          confirmLabel="Delete memory"
          busy={remove.isPending}
          error={remove.error?.message ?? null}
          onClose={() => setConfirming(false)}
          onConfirm={() => remove.mutate(m.id, { onSuccess: () => navigate('/memories', { replace: true }) })}
        />
      ) : null}
    </section>
  );
}
