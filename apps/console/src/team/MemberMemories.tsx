import { useState } from 'react';
import type { MemoryMetadata, User } from '../api';
import { DataTable, type Column } from '../ui/DataTable';
import { LoadMore } from '../ui/QueryState';
import { ConfirmDialog } from '../ui/Dialog';
import { Time } from '../ui/Time';
import { useDeleteMemberMemory, useMemberMemories, usePurgeMember } from './queries';

const COLUMNS: Column<MemoryMetadata>[] = [
  { header: 'Id', cell: (memory) => <code>{memory.id}</code> },
  { header: 'Scope', cell: (memory) => memory.scope },
  { header: 'Tags', cell: (memory) => memory.tags.join(', ') },
  { header: 'Size', cell: (memory) => `${memory.size} B` },
  { header: 'Contexts', cell: (memory) => memory.context_count },
  { header: 'Updated', cell: (memory) => <Time at={memory.updated_at} /> },
];

/** A member's memories as the API shows them to admins: metadata only, never content. */
export function MemberMemories({ member }: { member: User }) {
  const memories = useMemberMemories(member.id);
  const purge = usePurgeMember(member.id);
  const remove = useDeleteMemberMemory(member.id);
  const [purging, setPurging] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const rows = memories.data?.pages.flatMap((page) => page.memories) ?? [];
  return (
    <section aria-labelledby="member-memories-title" className="panel">
      <h2 id="member-memories-title">Memories of {member.email}</h2>
      <p>Metadata only: admins never read a member's private memories.</p>
      {purge.isSuccess ? (
        <p role="status">
          Purged {purge.data.memories} memories and {purge.data.contexts} contexts.
        </p>
      ) : null}
      {memories.isSuccess && rows.length === 0 ? <p>No memories.</p> : null}
      {rows.length ? (
        <DataTable
          caption={`Memories of ${member.email}`}
          rows={rows}
          rowKey={(memory) => memory.id}
          columns={[
            ...COLUMNS,
            {
              header: 'Actions',
              hiddenHeader: true,
              cell: (memory) => (
                <button type="button" className="danger" onClick={() => setDeleting(memory.id)} aria-label={`Delete memory ${memory.id}`}>
                  Delete
                </button>
              ),
            },
          ]}
        />
      ) : null}
      <LoadMore pages={memories} />
      <p>
        <button type="button" className="danger" onClick={() => setPurging(true)}>
          Purge all memories
        </button>
      </p>
      {purging ? (
        <ConfirmDialog
          title={`Purge all memories of ${member.email}?`}
          message={<p>Every private memory of this member is deleted with its contexts. Shared memories stay. This cannot be undone and is recorded in the audit log.</p>}
          typed={member.email}
          confirmLabel="Purge memories"
          busy={purge.isPending}
          error={purge.error?.message ?? null}
          onClose={() => setPurging(false)}
          onConfirm={() => purge.mutate(undefined, { onSuccess: () => setPurging(false) })}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this memory?"
          message={
            <p>
              Memory <code>{deleting}</code> of {member.email} is deleted without being shown to you. This is recorded in the audit log.
            </p>
          }
          confirmLabel="Delete memory"
          busy={remove.isPending}
          error={remove.error?.message ?? null}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
        />
      ) : null}
    </section>
  );
}
