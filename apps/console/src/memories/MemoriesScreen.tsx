import { useId, useState } from 'react';
import type { Memory, MemoryFilters, SearchResult } from '../api';
import { Link } from '../router';
import { ErrorAlert, LoadMore } from '../ui/QueryState';
import { relativeTime, Time } from '../ui/Time';
import { Highlighted } from './Highlighted';
import { previewOf } from './preview';
import { SaveMemoryForm } from './SaveMemoryForm';
import { SEARCH_DEBOUNCE_MS, useDebounced, useMemoryList, useMemorySearch } from './queries';

const PREVIEW_CHARS = 300;

/** What sets a memory apart from a plain current one: replaced, pinned, expiring. */
function Markers({ memory }: { memory: Memory | SearchResult }) {
  return (
    <>
      {'match' in memory && memory.match.semantic ? <span className="badge">Found by meaning</span> : null}
      {memory.superseded_by ? <span className="badge">Superseded</span> : null}
      {memory.pinned ? <span className="badge">Pinned</span> : null}
      {memory.expires_at ? (
        <span className="badge">
          expires <time dateTime={memory.expires_at}>{relativeTime(memory.expires_at)}</time>
        </span>
      ) : null}
    </>
  );
}

function MemoryItem({ memory }: { memory: Memory | SearchResult }) {
  const preview = previewOf(memory.content, PREVIEW_CHARS);
  return (
    <li className={memory.superseded_by ? 'memory superseded' : 'memory'}>
      {/* The text itself opens the memory: its words are the link's name. */}
      <p className="content">
        <Link className="open" to={`/memories/${encodeURIComponent(memory.id)}`}>
          {'match' in memory ? <Highlighted text={preview} highlights={memory.match.highlights} /> : preview}
        </Link>
      </p>
      <p className="meta">
        {memory.scope === 'org' ? 'shared with the org' : 'private'} · {memory.source} · <Time at={memory.updated_at} />
        {memory.tags.length ? ` · ${memory.tags.map((tag) => `#${tag}`).join(' ')}` : ''} <Markers memory={memory} />
      </p>
    </li>
  );
}

function Filters({ filters, onChange }: { filters: MemoryFilters; onChange: (next: MemoryFilters) => void }) {
  const id = useId();
  return (
    <fieldset className="filters">
      <legend>Filters</legend>
      <label htmlFor={`${id}-scope`}>Scope</label>
      <select id={`${id}-scope`} value={filters.scope ?? 'all'} onChange={(event) => onChange({ ...filters, scope: event.target.value as MemoryFilters['scope'] })}>
        <option value="all">All</option>
        <option value="user">Private</option>
        <option value="org">Shared with the org</option>
      </select>
      <label htmlFor={`${id}-tag`}>Tag</label>
      <input id={`${id}-tag`} value={filters.tag ?? ''} onChange={(event) => onChange({ ...filters, tag: event.target.value.trim() || undefined })} />
      <label htmlFor={`${id}-source`}>Source</label>
      <select
        id={`${id}-source`}
        value={filters.source ?? ''}
        onChange={(event) => onChange({ ...filters, source: (event.target.value || undefined) as MemoryFilters['source'] })}
      >
        <option value="">Any</option>
        <option value="api">API</option>
        <option value="mcp">MCP</option>
        <option value="hook">Hook</option>
      </select>
      <label className="check">
        <input
          type="checkbox"
          checked={filters.include_superseded === 'true'}
          onChange={(event) => onChange({ ...filters, include_superseded: event.target.checked ? 'true' : undefined })}
        />
        Show superseded
      </label>
    </fieldset>
  );
}

export function MemoriesScreen() {
  const [typed, setTyped] = useState('');
  const [filters, setFilters] = useState<MemoryFilters>({ scope: 'all' });
  const query = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const tag = useDebounced(filters.tag, SEARCH_DEBOUNCE_MS);
  const settled = { ...filters, tag };
  const searching = typed.trim().length > 0;
  const list = useMemoryList(settled, !searching);
  const search = useMemorySearch(query, settled);
  const listed = list.data?.pages.flatMap((page) => page.memories) ?? [];
  const found = query === typed.trim() && search.data ? search.data : null;

  return (
    <section aria-labelledby="memories-title">
      <h1 id="memories-title">Memories</h1>
      <SaveMemoryForm />
      <div role="search">
        <label htmlFor="memory-search">Search memories</label>
        <input id="memory-search" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
      </div>
      <Filters filters={filters} onChange={setFilters} />
      {searching ? (
        <div aria-live="polite" aria-busy={found === null}>
          <ErrorAlert error={search.error} />
          {found === null ? (
            <p role="status">Searching…</p>
          ) : (
            <>
              <h2>{found.results.length === 1 ? '1 result' : `${found.results.length} results`}</h2>
              {found.corrected_query !== null ? (
                <p className="note">
                  Also searched for <q>{found.corrected_query}</q>
                </p>
              ) : null}
              <ul className="memories" aria-label="Search results">
                {found.results.map((memory) => (
                  <MemoryItem key={memory.id} memory={memory} />
                ))}
              </ul>
            </>
          )}
        </div>
      ) : (
        <div>
          <ErrorAlert error={list.error} />
          {list.isPending ? <p role="status">Loading…</p> : null}
          {list.isSuccess && listed.length === 0 ? <p>No memories yet.</p> : null}
          <ul className="memories" aria-label="Memories">
            {listed.map((memory) => (
              <MemoryItem key={memory.id} memory={memory} />
            ))}
          </ul>
          <LoadMore pages={list} />
        </div>
      )}
    </section>
  );
}
