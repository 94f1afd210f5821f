import { useState } from 'react';
import { Link, navigate } from '../router';
import { ConfirmDialog } from '../ui/Dialog';
import { ErrorAlert, LoadMore } from '../ui/QueryState';
import { Time } from '../ui/Time';
import { useDeleteWorkstream, useRememberEvent, useWorkstream, useWorkstreamActions, useWorkstreamEvents } from './queries';

export function WorkstreamPage({ id }: { id: string }) {
  const workstream = useWorkstream(id);
  const events = useWorkstreamEvents(id);
  const actions = useWorkstreamActions(id);
  const remember = useRememberEvent(id);
  const remove = useDeleteWorkstream();
  const [confirming, setConfirming] = useState(false);

  if (workstream.isPending) return <p role="status">Loading…</p>;
  if (workstream.error) return <p role="alert">{workstream.error.message}</p>;
  const w = workstream.data;
  return (
    <section aria-labelledby="workstream-title">
      <p>
        <Link to="/workstreams">← Workstreams</Link>
      </p>
      <h1 id="workstream-title">Workstream {w.native_session_id}</h1>
      <p className="meta">
        {w.harness} · {w.cwd ?? 'no folder'} · {w.event_count} events · started <Time at={w.created_at} />
      </p>
      <button type="button" className="danger" onClick={() => setConfirming(true)}>
        Delete workstream
      </button>
      {remember.isSuccess ? (
        <p role="status">
          Remembered as <Link to={`/memories/${encodeURIComponent(remember.data.id)}`}>a memory</Link>.
        </p>
      ) : null}
      <ErrorAlert error={remember.error} />
      <h2>Tool actions</h2>
      {actions.data?.length ? (
        <ul className="events">
          {actions.data.map((action, index) => (
            <li key={action.tool_use_id ?? index}>
              <p>
                <strong>{action.tool_name ?? 'tool'}</strong> · {action.outcome}
              </p>
              {action.call ? <pre>{action.call.content}</pre> : null}
              {action.result ? <pre>{action.result.content}</pre> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>No tool actions.</p>
      )}
      <h2>Timeline</h2>
      <ol className="events">
        {events.data?.pages
          .flatMap((page) => page.events)
          .map((event) => (
            <li key={event.sequence}>
              <p className="meta">
                #{event.sequence} · {event.event} · {event.role} · <Time at={event.occurred_at} />
              </p>
              <p className="content">{event.content}</p>
              <button type="button" className="secondary" onClick={() => remember.mutate(event.sequence)} aria-label={`Remember event ${event.sequence}`}>
                Remember
              </button>
            </li>
          ))}
      </ol>
      <LoadMore pages={events} label="Load more events" />
      {confirming ? (
        <ConfirmDialog
          title="Delete this workstream?"
          message={<p>Its events and archived segments are deleted. Memories saved from it stay.</p>}
          confirmLabel="Delete workstream"
          busy={remove.isPending}
          error={remove.error?.message ?? null}
          onClose={() => setConfirming(false)}
          onConfirm={() => remove.mutate(id, { onSuccess: () => navigate('/workstreams', { replace: true }) })}
        />
      ) : null}
    </section>
  );
}
