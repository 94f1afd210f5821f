import type { Memory } from '../api';
import { Link } from '../router';
import { Time } from '../ui/Time';
import { previewOf } from './preview';

const PREVIEW_CHARS = 120;
const pathOf = (id: string) => `/memories/${encodeURIComponent(id)}`;

/** At the top of a version something replaced: which memory replaced it (named by its text once the history says it). */
export function SupersededNotice({ memory, versions }: { memory: Memory; versions: Memory[] | undefined }) {
  if (!memory.superseded_by) return null;
  const newer = versions?.find((version) => version.id === memory.superseded_by);
  return (
    <p className="warning">
      <strong>This version is not current.</strong> Superseded by{' '}
      <Link to={pathOf(memory.superseded_by)}>{newer ? previewOf(newer.content, PREVIEW_CHARS) : memory.superseded_by}</Link>. Agents are no longer given it, and it
      is left out of the list and search unless <em>Show superseded</em> is ticked.
    </p>
  );
}

/** The chain of versions, newest (the current one) first, this page's version marked; nothing for a memory with one version. */
export function MemoryHistory({ memory, versions }: { memory: Memory; versions: Memory[] | undefined }) {
  if (!versions || versions.length < 2) return null;
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <ol className="history" aria-labelledby="history-title">
        {versions.map((version, index) => {
          const here = version.id === memory.id;
          return (
            <li key={version.id} className={here ? 'here' : undefined}>
              <Link to={pathOf(version.id)} aria-current={here ? 'page' : undefined}>
                {previewOf(version.content, PREVIEW_CHARS)}
              </Link>
              <span className="meta">
                {' '}
                · saved <Time at={version.created_at} />
                {index === 0 ? ' · current' : ''}
                {here ? ' · this version' : ''}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
