import { useState } from 'react';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../memories/queries';
import { Link } from '../router';
import type { Workstream } from '../api';
import { DataTable, type Column } from '../ui/DataTable';
import { ErrorAlert, LoadMore } from '../ui/QueryState';
import { Time } from '../ui/Time';
import { useWorkstreamSearch, useWorkstreams } from './queries';

const COLUMNS: Column<Workstream>[] = [
  { header: 'Session', cell: (workstream) => <Link to={`/workstreams/${encodeURIComponent(workstream.id)}`}>{workstream.native_session_id}</Link> },
  { header: 'Harness', cell: (workstream) => workstream.harness },
  { header: 'Folder', cell: (workstream) => workstream.cwd ?? '—' },
  { header: 'Events', cell: (workstream) => workstream.event_count },
  { header: 'Last event', cell: (workstream) => <Time at={workstream.last_event_at} /> },
];

export function WorkstreamsScreen() {
  const [typed, setTyped] = useState('');
  const query = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const list = useWorkstreams();
  const search = useWorkstreamSearch(query);
  const workstreams = list.data?.pages.flatMap((page) => page.workstreams) ?? [];
  return (
    <section aria-labelledby="workstreams-title">
      <h1 id="workstreams-title">Workstreams</h1>
      <p>Agent sessions captured from hooks, newest first.</p>
      <div role="search">
        <label htmlFor="workstream-search">Search workstreams</label>
        <input id="workstream-search" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
      </div>
      {query ? (
        <ul className="events" aria-label="Matching events">
          {search.isPending ? <li role="status">Searching…</li> : null}
          {search.data?.map((event) => (
            <li key={`${event.workstream_id}-${event.sequence}`}>
              <p className="content">{event.content}</p>
              <p className="meta">
                <Link to={`/workstreams/${encodeURIComponent(event.workstream_id)}`}>Open workstream</Link> · #{event.sequence} · {event.event} · <Time at={event.occurred_at} />
              </p>
            </li>
          ))}
          {search.data?.length === 0 ? <li>No events match.</li> : null}
        </ul>
      ) : (
        <>
          <ErrorAlert error={list.error} />
          {list.isSuccess && workstreams.length === 0 ? <p>No workstreams yet. Install a hook (docs/hooks.md) to capture agent sessions.</p> : null}
          <DataTable caption="Workstreams" columns={COLUMNS} rows={workstreams} rowKey={(workstream) => workstream.id} />
          <LoadMore pages={list} />
        </>
      )}
    </section>
  );
}
