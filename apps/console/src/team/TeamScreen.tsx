import { useId, useState, type FormEvent } from 'react';
import type { Role, User } from '../api';
import { DataTable, type Column } from '../ui/DataTable';
import { ConfirmDialog } from '../ui/Dialog';
import { ErrorAlert } from '../ui/QueryState';
import { useAdminOrg } from '../org';
import { Time } from '../ui/Time';
import { MemberMemories } from './MemberMemories';
import { OrgSettingsForm } from './OrgSettingsForm';
import { useAddMember, useChangeRole, useMembers, useRemoveMember } from './queries';

const ROLES: Role[] = ['member', 'admin', 'owner'];

/** The member's role as a select: changing it saves it (the API says who may change whom). */
function RoleSelect({ member }: { member: User }) {
  const change = useChangeRole();
  if (member.removed_at) return <>removed ({member.role})</>;
  return (
    <>
      <select
        aria-label={`Role of ${member.email}`}
        value={change.isPending ? change.variables.role : member.role}
        disabled={change.isPending}
        onChange={(event) => change.mutate({ userId: member.id, role: event.target.value as Role })}
      >
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
      {change.error ? <span role="alert"> {change.error.message}</span> : null}
    </>
  );
}

function AddMemberForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const add = useAddMember();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ email, role }, { onSuccess: () => setEmail('') });
  };
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`} className="inline">
      <h2 id={`${id}-title`}>Add a member</h2>
      <label htmlFor={`${id}-email`}>Email</label>
      <input id={`${id}-email`} type="email" value={email} onChange={(event) => setEmail(event.target.value)} required />
      <label htmlFor={`${id}-role`}>Role</label>
      <select id={`${id}-role`} value={role} onChange={(event) => setRole(event.target.value as Role)}>
        <option value="member">member</option>
        <option value="admin">admin</option>
        <option value="owner">owner</option>
      </select>
      <button type="submit" disabled={add.isPending}>
        Add member
      </button>
      <ErrorAlert error={add.error} />
      {add.isSuccess ? <p role="status">Added {add.data.user.email}. They sign in with single sign-on, or with a key you create for them with the CLI.</p> : null}
    </form>
  );
}

const MEMBER_COLUMNS: Column<User>[] = [
  { header: 'Email', cell: (member) => member.email },
  { header: 'Role', cell: (member) => <RoleSelect member={member} /> },
  { header: 'Added', cell: (member) => <Time at={member.created_at} /> },
];

export function TeamScreen() {
  const members = useMembers();
  const { org } = useAdminOrg();
  const remove = useRemoveMember();
  const [selected, setSelected] = useState<User | null>(null);
  const [removing, setRemoving] = useState<User | null>(null);
  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">Team</h1>
      <AddMemberForm />
      <h2>Members</h2>
      <ErrorAlert error={members.error} />
      <DataTable
        caption="Members"
        rows={members.data ?? []}
        rowKey={(member) => member.id}
        columns={[
          ...MEMBER_COLUMNS,
          {
            header: 'Actions',
            hiddenHeader: true,
            className: 'actions',
            cell: (member) => (
              <>
                <button type="button" className="secondary" onClick={() => setSelected(member)} aria-label={`Memories of ${member.email}`}>
                  Memories
                </button>
                {member.removed_at ? null : (
                  <button type="button" className="danger" onClick={() => setRemoving(member)} aria-label={`Remove ${member.email}`}>
                    Remove
                  </button>
                )}
              </>
            ),
          },
        ]}
      />
      {selected ? <MemberMemories key={selected.id} member={selected} /> : null}
      {org ? <OrgSettingsForm org={org} /> : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.email}?`}
          message={<p>Their keys are revoked at once and their private memories and workstreams are deleted.</p>}
          typed={removing.email}
          confirmLabel="Remove member"
          busy={remove.isPending}
          error={remove.error?.message ?? null}
          onClose={() => setRemoving(null)}
          onConfirm={() => remove.mutate(removing.id, { onSuccess: () => setRemoving(null) })}
        />
      ) : null}
    </section>
  );
}
