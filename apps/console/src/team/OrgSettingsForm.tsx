import { useId, useState, type FormEvent } from 'react';
import { FIELD_LIMITS, type Org, type OrgChange } from '../api';
import { ErrorAlert } from '../ui/QueryState';
import { useUpdateOrg } from './queries';

const RETENTION = FIELD_LIMITS.UpdateOrg.memory_retention_days;

interface Draft {
  redact: boolean;
  dedupe: boolean;
  /** Whole days as typed; empty: kept until deleted. */
  memoryDays: string;
  workstreamDays: string;
}

const draftOf = (org: Org): Draft => ({
  redact: org.redact_memory_secrets,
  dedupe: org.dedupe_memories,
  memoryDays: org.memory_retention_days === null ? '' : String(org.memory_retention_days),
  workstreamDays: org.workstream_retention_days === null ? '' : String(org.workstream_retention_days),
});

const daysOf = (typed: string): number | null => (typed.trim() === '' ? null : Number(typed));

/** Only the settings the form changed: each change is audited with its new value. */
function changeOf(org: Org, draft: Draft): OrgChange {
  const change: OrgChange = {};
  if (draft.redact !== org.redact_memory_secrets) change.redact_memory_secrets = draft.redact;
  if (draft.dedupe !== org.dedupe_memories) change.dedupe_memories = draft.dedupe;
  if (daysOf(draft.memoryDays) !== org.memory_retention_days) change.memory_retention_days = daysOf(draft.memoryDays);
  if (daysOf(draft.workstreamDays) !== org.workstream_retention_days) change.workstream_retention_days = daysOf(draft.workstreamDays);
  return change;
}

function SettingCheckbox({ label, hint, checked, onChange }: { label: string; hint: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="setting">
      <label className="check">
        <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} aria-describedby={`${id}-hint`} />
        {label}
      </label>
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
    </div>
  );
}

function RetentionInput({ label, hint, value, onChange }: { label: string; hint: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={RETENTION.minimum}
        max={RETENTION.maximum}
        step={1}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-hint`}
      />
      <p className="hint" id={`${id}-hint`}>
        {hint} Empty: kept until deleted.
      </p>
    </>
  );
}

/** The org's memory settings (admins and owners): secret redaction, duplicate saves, retention. */
export function OrgSettingsForm({ org }: { org: Org }) {
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(org));
  const save = useUpdateOrg();
  const change = changeOf(org, draft);
  const changed = Object.keys(change).length > 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed) save.mutate(change);
  };
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`} className="panel">
      <h2 id={`${id}-title`}>Org settings</h2>
      <SettingCheckbox
        label="Redact secrets in memories"
        hint="Secrets in memory text and contexts are stored as [REDACTED:<kind>]. Hook payloads are always redacted."
        checked={draft.redact}
        onChange={(redact) => setDraft({ ...draft, redact })}
      />
      <SettingCheckbox
        label="Merge duplicate saves"
        hint="A save equal to a memory its owner already has (same scope; case and spacing aside) adds its contexts and tags to that memory instead of storing a copy."
        checked={draft.dedupe}
        onChange={(dedupe) => setDraft({ ...draft, dedupe })}
      />
      <RetentionInput
        label="Memory retention (days)"
        hint="Memories not updated for this many days are deleted; pinned ones are kept."
        value={draft.memoryDays}
        onChange={(memoryDays) => setDraft({ ...draft, memoryDays })}
      />
      <RetentionInput
        label="Workstream retention (days)"
        hint="Workstream events older than this are deleted, with their archived copies."
        value={draft.workstreamDays}
        onChange={(workstreamDays) => setDraft({ ...draft, workstreamDays })}
      />
      <button type="submit" disabled={!changed || save.isPending}>
        Save settings
      </button>
      {save.isSuccess && !changed ? <p role="status">Settings saved.</p> : null}
      <ErrorAlert error={save.error} />
    </form>
  );
}
