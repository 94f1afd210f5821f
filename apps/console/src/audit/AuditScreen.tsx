import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, type AuditEvent } from '../api';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../memories/queries';
import { DataTable, type Column } from '../ui/DataTable';
import { ErrorAlert, LoadMore } from '../ui/QueryState';
import { Time } from '../ui/Time';

// The audited actions (GET /v1/admin/audit's description lists them; the API has no enum for it).
const ACTIONS = ['member.add', 'member.remove', 'member.purge', 'member.role', 'memory.delete', 'memory.export', 'memory.import', 'api_key.create', 'api_key.revoke', 'org.create', 'org.update', 'oauth.grant', 'oauth.revoke'];

/** The instant a local day (`YYYY-MM-DD`, as a date input gives it) plus `days` begins, in RFC 3339. */
function startOfDay(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00`);
  at.setDate(at.getDate() + days);
  return at.toISOString();
}

const COLUMNS: Column<AuditEvent>[] = [
  { header: 'When', cell: (event) => <Time at={event.created_at} /> },
  { header: 'Action', cell: (event) => event.action },
  { header: 'Actor', cell: (event) => (event.actor.type === 'operator' ? 'operator' : (event.actor.user_id ?? event.actor.type)) },
  {
    header: 'Target',
    cell: (event) => (
      <>
        {event.target.type} {event.target.id ? <code>{event.target.id}</code> : null}
      </>
    ),
  },
  { header: 'Counts', cell: (event) => (event.counts ? Object.entries(event.counts).map(([name, count]) => `${name}: ${count}`).join(', ') : '') },
];

export function AuditScreen() {
  const id = useId();
  const [action, setAction] = useState('');
  const [actorTyped, setActor] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const actor = useDebounced(actorTyped.trim(), SEARCH_DEBOUNCE_MS);
  // The dates are the browser's local days: From at its first instant, To up to the end of its day.
  const filters = { action: action || undefined, actor: actor || undefined, since: since ? startOfDay(since, 0) : undefined, until: until ? startOfDay(until, 1) : undefined };
  const audit = useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) => api.audit({ ...filters, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  const events = audit.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <fieldset className="filters">
        <legend>Filters</legend>
        <label htmlFor={`${id}-action`}>Action</label>
        <select id={`${id}-action`} value={action} onChange={(event) => setAction(event.target.value)}>
          <option value="">Any</option>
          {ACTIONS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-actor`}>Actor (user id)</label>
        <input id={`${id}-actor`} value={actorTyped} onChange={(event) => setActor(event.target.value)} placeholder="usr_…" />
        <label htmlFor={`${id}-since`}>From</label>
        <input id={`${id}-since`} type="date" value={since} onChange={(event) => setSince(event.target.value)} />
        <label htmlFor={`${id}-until`}>To</label>
        <input id={`${id}-until`} type="date" value={until} onChange={(event) => setUntil(event.target.value)} />
      </fieldset>
      <ErrorAlert error={audit.error} />
      <DataTable caption="Audit events" columns={COLUMNS} rows={events} rowKey={(event) => event.id} />
      {audit.isSuccess && events.length === 0 ? <p>No events.</p> : null}
      <LoadMore pages={audit} />
    </section>
  );
}
