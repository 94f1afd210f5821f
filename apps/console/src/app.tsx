import { useEffect, type ReactNode } from 'react';
import { AuditScreen } from './audit/AuditScreen';
import { ConsentScreen } from './authorize/ConsentScreen';
import { ConnectedAppsScreen } from './connected-apps/ConnectedAppsScreen';
import { KeysScreen } from './keys/KeysScreen';
import { MemoriesScreen } from './memories/MemoriesScreen';
import { MemoryPage } from './memories/MemoryPage';
import { useAdminOrg } from './org';
import { Link, navigate, useLocation } from './router';
import { signOut, useCredential } from './session';
import { OidcCallback } from './signin/OidcCallback';
import { SignInScreen } from './signin/SignInScreen';
import { TeamScreen } from './team/TeamScreen';
import { TransferScreen } from './transfer/TransferScreen';
import { WorkstreamPage } from './workstreams/WorkstreamPage';
import { WorkstreamsScreen } from './workstreams/WorkstreamsScreen';

const MEMBER_LINKS = [
  { to: '/memories', label: 'Memories' },
  { to: '/workstreams', label: 'Workstreams' },
];
const ADMIN_LINKS = [
  { to: '/team', label: 'Team' },
  { to: '/audit', label: 'Audit log' },
];
const OWN_LINKS = [
  { to: '/keys', label: 'API keys' },
  { to: '/connected-apps', label: 'Connected apps' },
  { to: '/transfer', label: 'Export / import' },
];

function Shell({ children, isAdmin, orgName, path }: { children: ReactNode; isAdmin: boolean; orgName: string | null; path: string }) {
  const links = [...MEMBER_LINKS, ...(isAdmin ? ADMIN_LINKS : []), ...OWN_LINKS];
  return (
    <>
      <header className="top">
        <span className="brand">Memory Bank{orgName ? ` · ${orgName}` : ''}</span>
        <nav aria-label="Main">
          <ul>
            {links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} aria-current={path.startsWith(link.to) ? 'page' : undefined}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            signOut();
            navigate('/', { replace: true });
          }}
        >
          Sign out
        </button>
      </header>
      <main>{children}</main>
    </>
  );
}

function Screen({ path, isAdmin }: { path: string; isAdmin: boolean }) {
  const [, section, id] = path.split('/');
  switch (section) {
    case 'memories':
      return id ? <MemoryPage id={decodeURIComponent(id)} /> : <MemoriesScreen />;
    case 'workstreams':
      return id ? <WorkstreamPage id={decodeURIComponent(id)} /> : <WorkstreamsScreen />;
    case 'team':
      return isAdmin ? <TeamScreen /> : <NotFound />;
    case 'audit':
      return isAdmin ? <AuditScreen /> : <NotFound />;
    case 'keys':
      return <KeysScreen />;
    case 'connected-apps':
      return <ConnectedAppsScreen isAdmin={isAdmin} />;
    case 'transfer':
      return <TransferScreen />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  return (
    <section aria-labelledby="not-found">
      <h1 id="not-found">Page not found</h1>
      <p>
        <Link to="/memories">Go to your memories</Link>
      </p>
    </section>
  );
}

export function App() {
  const credential = useCredential();
  const { path } = useLocation();
  const { isAdmin, org, known } = useAdminOrg();

  useEffect(() => {
    if (credential && (path === '/' || path === '/signin')) navigate('/memories', { replace: true });
  }, [credential, path]);

  if (path === '/callback') return <OidcCallback />;
  // An app's authorization request (the server's /oauth/interaction/<uid> sends the browser here): a page of its own.
  const interaction = path.startsWith('/authorize/') ? decodeURIComponent(path.slice('/authorize/'.length)) : null;
  if (!credential) return <SignInScreen why={interaction ? <p>An app asks to connect to your Memory Bank. Sign in to continue.</p> : undefined} />;
  if (interaction) return <ConsentScreen key={interaction} uid={interaction} />;
  // Admin screens are decided before they render, so a member never sees one, even briefly.
  if (!known && (path.startsWith('/team') || path.startsWith('/audit'))) return <p role="status">Loading…</p>;
  return (
    <Shell isAdmin={isAdmin} orgName={org?.name ?? null} path={path}>
      <Screen path={path} isAdmin={isAdmin} />
    </Shell>
  );
}
