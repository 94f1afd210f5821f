import { useId } from 'react';
import type { CreatedMemory } from '../api';
import { Link } from '../router';
import { previewOf } from './preview';

const PREVIEW_CHARS = 120;
const pathOf = (id: string) => `/memories/${encodeURIComponent(id)}`;

/**
 * What became of a save: stored, or added to the equal memory already there; and the
 * memories much like it, so the person can decide whether one of them should be changed
 * or deleted rather than both kept.
 */
export function SaveOutcome({ saved }: { saved: CreatedMemory }) {
  const id = useId();
  return (
    <div role="status">
      {saved.duplicate ? (
        <p>
          Already saved: added to the existing memory <Link to={pathOf(saved.id)}>{previewOf(saved.content, PREVIEW_CHARS)}</Link>.
        </p>
      ) : (
        <p>Saved.</p>
      )}
      {saved.similar.length ? (
        <>
          <p id={`${id}-similar`}>Similar memories — if one says the same or is out of date, open it to edit or delete it:</p>
          <ul aria-labelledby={`${id}-similar`}>
            {saved.similar.map((similar) => (
              <li key={similar.id}>
                <Link to={pathOf(similar.id)}>{previewOf(similar.content, PREVIEW_CHARS)}</Link>{' '}
                <span className="meta">(score {similar.score.toFixed(2)})</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
