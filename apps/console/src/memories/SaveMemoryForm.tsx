import { useId, useState, type FormEvent } from 'react';
import type { Scope } from '../api';
import { useAdminOrg } from '../org';
import { ErrorAlert } from '../ui/QueryState';
import { NewContexts, toContextInputs, type ContextDraft } from './NewContexts';
import { parseTags, useSaveMemory } from './queries';
import { SaveOutcome } from './SaveOutcome';

export function SaveMemoryForm() {
  const id = useId();
  const [content, setContent] = useState('');
  const [tags, setTags] = useState('');
  const [scope, setScope] = useState<Scope>('user');
  const [contexts, setContexts] = useState<ContextDraft[]>([]);
  const save = useSaveMemory();
  // Only admins may share with the org (the API refuses members anyway).
  const { isAdmin } = useAdminOrg();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!content.trim()) return;
    save.mutate(
      { content, tags: parseTags(tags), scope, ...(contexts.length ? { contexts: toContextInputs(contexts) } : {}) },
      {
        onSuccess: () => {
          setContent('');
          setTags('');
          setContexts([]);
        },
      },
    );
  };

  return (
    <form className="save" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Save a memory</h2>
      <label htmlFor={`${id}-content`}>New memory</label>
      <textarea id={`${id}-content`} rows={3} value={content} onChange={(event) => setContent(event.target.value)} required />
      <label htmlFor={`${id}-tags`}>Tags (comma-separated)</label>
      <input id={`${id}-tags`} value={tags} onChange={(event) => setTags(event.target.value)} />
      {isAdmin ? (
        <>
          <label htmlFor={`${id}-scope`}>Visible to</label>
          <select id={`${id}-scope`} value={scope} onChange={(event) => setScope(event.target.value as Scope)}>
            <option value="user">Only me</option>
            <option value="org">The whole org</option>
          </select>
        </>
      ) : null}
      <NewContexts drafts={contexts} onChange={setContexts} />
      <button type="submit" disabled={save.isPending}>
        Save
      </button>
      {save.isSuccess ? <SaveOutcome saved={save.data} /> : null}
      <ErrorAlert error={save.error} />
    </form>
  );
}
