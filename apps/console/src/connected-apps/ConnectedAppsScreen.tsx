import { useState } from 'react';
import type { OAuthGrant } from '../api';
import { useMembers } from '../team/queries';
import { DataTable, type Column } from '../ui/DataTable';
import { ConfirmDialog } from '../ui/Dialog';
import { ErrorAlert } from '../ui/QueryState';
import { Time } from '../ui/Time';
import { useGrants, useRevokeGrant } from './queries';

const appName = (grant: OAuthGrant) => grant.client_name ?? grant.client_id;

const GRANT_COLUMNS: Column<OAuthGrant>[] = [
  { header: 'App', cell: appName },
  { header: 'App id', cell: (grant) => <code>{grant.client_id}</code> },
  { header: 'Scopes', cell: (grant) => grant.scopes.join(', ') },
  { header: 'Connected', cell: (grant) => <Time at={grant.created_at} /> },
  { header: 'Last used', cell: (grant) => (grant.last_used_at ? <Time at={grant.last_used_at} /> : 'never') },
];

/** How to connect an app, for when none is. */
function NoConnectedApps() {
  return (
    <div className="panel">
      <p>
        <strong>No connected apps yet.</strong>
      </p>
      <p>
        To connect an app such as Claude or ChatGPT, add <code>{window.location.origin}/mcp/oauth</code> as its MCP server URL: the app sends you here to sign in and allow it.
      </p>
    </div>
  );
}

/** The members' emails by user id, read only when the org's grants are shown. */
function usePeople(enabled: boolean): (userId: string) => string {
  const members = useMembers({ enabled });
  const emails = new Map((members.data ?? []).map((member) => [member.id, member.email]));
  return (userId) => emails.get(userId) ?? userId;
}

/**
 * The apps (OAuth clients, e.g. Claude over MCP) the signed-in person has allowed, and for
 * admins everyone's in the org; revoking one stops its tokens at once.
 */
export function ConnectedAppsScreen({ isAdmin }: { isAdmin: boolean }) {
  const [everyone, setEveryone] = useState(false);
  const all = isAdmin && everyone;
  const grants = useGrants(all);
  const personOf = usePeople(all);
  const revoke = useRevokeGrant();
  const [revoking, setRevoking] = useState<OAuthGrant | null>(null);
  const whose = (grant: OAuthGrant) => (all ? ` for ${personOf(grant.user_id)}` : '');
  const rows = grants.data ?? [];
  return (
    <section aria-labelledby="connected-apps-title">
      <h1 id="connected-apps-title">Connected apps</h1>
      <p>Apps you allowed to use your memories through the MCP server. Revoke one and it is refused from the next request on.</p>
      {isAdmin ? (
        <label className="check">
          <input type="checkbox" checked={everyone} onChange={(event) => setEveryone(event.target.checked)} /> Everyone in the org
        </label>
      ) : null}
      <ErrorAlert error={grants.error} />
      {grants.isSuccess && rows.length === 0 ? <NoConnectedApps /> : null}
      {rows.length ? (
        <DataTable
          caption={all ? 'Connected apps in the org' : 'Your connected apps'}
          rows={rows}
          rowKey={(grant) => grant.id}
          columns={[
            ...GRANT_COLUMNS,
            ...(all ? [{ header: 'Person', cell: (grant: OAuthGrant) => personOf(grant.user_id) }] : []),
            {
              header: 'Actions',
              hiddenHeader: true,
              className: 'actions',
              cell: (grant) => (
                <button type="button" className="danger" onClick={() => setRevoking(grant)} aria-label={`Revoke ${appName(grant)}${whose(grant)}`}>
                  Revoke
                </button>
              ),
            },
          ]}
        />
      ) : null}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke ${appName(revoking)}${whose(revoking)}?`}
          message={<p>Its access and refresh tokens stop working at once. To use it again, connect it again from the app.</p>}
          confirmLabel="Revoke access"
          busy={revoke.isPending}
          error={revoke.error?.message ?? null}
          onClose={() => setRevoking(null)}
          onConfirm={() => revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
        />
      ) : null}
    </section>
  );
}
