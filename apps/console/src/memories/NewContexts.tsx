import { useId } from 'react';
import { FIELD_LIMITS, type NewMemory } from '../api';

/** A context being written in the save form: a snippet and, optionally, where it is from. */
export interface ContextDraft {
  key: number;
  snippet: string;
  url: string;
  title: string;
}

const MAX_CONTEXTS = FIELD_LIMITS.CreateMemory.contexts.maxItems;
const SNIPPET_CHARS = FIELD_LIMITS.MemoryContextInput.snippet.maxLength;

let nextKey = 0;
export const emptyContext = (): ContextDraft => ({ key: nextKey++, snippet: '', url: '', title: '' });

/** The drafts as the API takes them: `citation` only when a URL or a title was given. */
export function toContextInputs(drafts: ContextDraft[]): NonNullable<NewMemory['contexts']> {
  return drafts.map(({ snippet, url, title }) => {
    const citation = { ...(url.trim() ? { url: url.trim() } : {}), ...(title.trim() ? { title: title.trim() } : {}) };
    return Object.keys(citation).length ? { snippet, citation } : { snippet };
  });
}

function ContextFields({ draft, index, onChange, onRemove }: { draft: ContextDraft; index: number; onChange: (next: ContextDraft) => void; onRemove: () => void }) {
  const id = useId();
  const name = `Context ${index + 1}`;
  return (
    <fieldset className="context">
      <legend>{name}</legend>
      <label htmlFor={`${id}-snippet`}>Snippet</label>
      <textarea
        id={`${id}-snippet`}
        rows={2}
        value={draft.snippet}
        onChange={(event) => onChange({ ...draft, snippet: event.target.value })}
        required
        maxLength={SNIPPET_CHARS}
      />
      <label htmlFor={`${id}-url`}>Citation URL (optional)</label>
      <input
        id={`${id}-url`}
        type="url"
        inputMode="url"
        placeholder="https://…"
        // The memory's page shows only http(s) addresses as links.
        pattern="https?://.+"
        title="An http:// or https:// address"
        value={draft.url}
        onChange={(event) => onChange({ ...draft, url: event.target.value })}
      />
      <label htmlFor={`${id}-title`}>Citation title (optional)</label>
      <input id={`${id}-title`} value={draft.title} onChange={(event) => onChange({ ...draft, title: event.target.value })} />
      <div className="actions">
        <button type="button" className="secondary" onClick={onRemove}>
          Remove {name.toLowerCase()}
        </button>
      </div>
    </fieldset>
  );
}

/** The save form's contexts: where the memory comes from, each a snippet with an optional citation. */
export function NewContexts({ drafts, onChange }: { drafts: ContextDraft[]; onChange: (next: ContextDraft[]) => void }) {
  return (
    <fieldset className="contexts">
      <legend>Contexts</legend>
      <p className="hint">Where this memory comes from: a passage, and the page it is from (up to {MAX_CONTEXTS}).</p>
      {drafts.map((draft, index) => (
        <ContextFields
          key={draft.key}
          draft={draft}
          index={index}
          onChange={(next) => onChange(drafts.map((other) => (other.key === draft.key ? next : other)))}
          onRemove={() => onChange(drafts.filter((other) => other.key !== draft.key))}
        />
      ))}
      <button type="button" className="secondary" onClick={() => onChange([...drafts, emptyContext()])} disabled={drafts.length >= MAX_CONTEXTS}>
        Add a context
      </button>
    </fieldset>
  );
}
