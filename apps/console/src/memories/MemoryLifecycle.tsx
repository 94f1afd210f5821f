import { useId, useState, type FormEvent } from 'react';
import type { Memory } from '../api';
import { changedMeanwhile, useUpdateMemory } from './queries';

const CHANGED_MEANWHILE = 'Someone changed this memory meanwhile; the page now shows their version. Try again.';

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local input holds it: the browser's local time, to the minute. */
function toLocalInput(at: string): string {
  const date = new Date(at);
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}T${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

/** Pins or unpins the memory: pinned memories come first when a session starts and retention keeps them. */
export function PinToggle({ memory, etag }: { memory: Memory; etag: string | null }) {
  const update = useUpdateMemory(memory.id);
  const pinned = update.isPending ? Boolean(update.variables.body.pinned) : memory.pinned;
  return (
    <>
      <button
        type="button"
        className={pinned ? undefined : 'secondary'}
        aria-pressed={pinned}
        title={pinned ? 'Pinned: click to unpin' : 'Given to agents first when a session starts; kept by retention'}
        disabled={update.isPending}
        onClick={() => update.mutate({ body: { pinned: !memory.pinned }, etag })}
      >
        Pin
      </button>
      {update.error ? <span role="alert">{changedMeanwhile(update.error) ? CHANGED_MEANWHILE : update.error.message}</span> : null}
    </>
  );
}

/** Sets when the memory expires (the browser's local time), or makes it never expire. */
export function ExpiryForm({ memory, etag }: { memory: Memory; etag: string | null }) {
  const id = useId();
  const [at, setAt] = useState(memory.expires_at ? toLocalInput(memory.expires_at) : '');
  const [outcome, setOutcome] = useState<string | null>(null);
  const update = useUpdateMemory(memory.id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    update.mutate({ body: { expires_at: new Date(at).toISOString() }, etag }, { onSuccess: () => setOutcome('Expiry saved.') });
  };
  const neverExpire = () => {
    setOutcome(null);
    update.mutate(
      { body: { expires_at: null }, etag },
      {
        onSuccess: () => {
          setAt('');
          setOutcome('It no longer expires.');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Expiry</h2>
      <p className="hint" id={`${id}-hint`}>
        Once it expires it leaves every read (the list, search, agents) and is then deleted for good.
      </p>
      <label htmlFor={`${id}-at`}>Expires at</label>
      <input id={`${id}-at`} type="datetime-local" value={at} onChange={(event) => setAt(event.target.value)} aria-describedby={`${id}-hint`} required />
      <div className="actions">
        <button type="submit" disabled={update.isPending}>
          Save expiry
        </button>
        {memory.expires_at ? (
          <button type="button" className="secondary" onClick={neverExpire} disabled={update.isPending}>
            Never expire
          </button>
        ) : null}
      </div>
      {outcome ? <p role="status">{outcome}</p> : null}
      {update.error ? <p role="alert">{changedMeanwhile(update.error) ? CHANGED_MEANWHILE : update.error.message}</p> : null}
    </form>
  );
}
