import { useEffect, useRef } from 'react';
import type { ConsentRequest } from '../api';
import { signOut } from '../session';
import { describeConsentError, useConsentDecision, useConsentRequest } from './queries';

const appName = (client: ConsentRequest['client']) => client.client_name ?? client.client_id;

/** Who is asked, for what, and where the answer goes: what a person checks before allowing. */
function ConsentDetails({ request }: { request: ConsentRequest }) {
  const name = appName(request.client);
  return (
    <>
      <p>
        {name} asks to use your memories in <strong>{request.org.name}</strong>. You are signed in as <code>{request.user.email ?? request.user.id}</code> ({request.user.role}).
      </p>
      <h2 id="consent-scopes">It will be able to</h2>
      {request.scopes.length ? (
        <ul aria-labelledby="consent-scopes" className="scopes">
          {request.scopes.map((scope) => (
            <li key={scope.scope}>
              {scope.description} <code>{scope.scope}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p>Nothing: your account cannot give any of what {name} asks for, so it will be refused either way.</p>
      )}
      {request.client.redirect_host_differs ? (
        <p className="warning">
          {name} will send you back to <strong>{request.client.redirect_host}</strong>.
        </p>
      ) : null}
      <dl className="facts">
        <dt>App id</dt>
        <dd>
          <code>{request.client.client_id}</code>
        </dd>
        {request.client.client_uri ? (
          <>
            <dt>Website</dt>
            <dd>{request.client.client_uri}</dd>
          </>
        ) : null}
      </dl>
      <p className="hint">You can disconnect it at any time under Connected apps in this console.</p>
    </>
  );
}

/**
 * The authorization server's consent step (GET /oauth/interaction/<uid> sends the browser
 * here): the signed-in person allows or denies an app, and the browser goes back to the
 * server, which sends it on to the app.
 */
export function ConsentScreen({ uid }: { uid: string }) {
  const request = useConsentRequest(uid);
  const decision = useConsentDecision(uid);
  const { mutate: decide } = decision;
  const remembered = request.data?.remembered === true;
  const sent = useRef(false);
  useEffect(() => {
    // Allowed before for this app and these scopes: no second question (and one answer only).
    if (!remembered || sent.current) return;
    sent.current = true;
    decide('allow');
  }, [remembered, decide]);

  if (request.isPending) {
    return (
      <main className="consent">
        <p role="status">Loading…</p>
      </main>
    );
  }
  if (request.isError) {
    return (
      <main className="consent">
        <h1>Connect an app</h1>
        <p role="alert">{describeConsentError(request.error)}</p>
      </main>
    );
  }
  const name = appName(request.data.client);
  const answering = decision.isPending || decision.isSuccess;
  return (
    <main className="consent">
      <h1>Allow {name} to use your Memory Bank?</h1>
      {decision.isError ? <p role="alert">{describeConsentError(decision.error)}</p> : null}
      {answering || (remembered && decision.isIdle) ? (
        <p role="status">Returning you to {name}…</p>
      ) : (
        <>
          <ConsentDetails request={request.data} />
          <div className="actions">
            <button type="button" onClick={() => decide('allow')}>
              Allow
            </button>
            <button type="button" className="secondary" onClick={() => decide('deny')}>
              Deny
            </button>
          </div>
          <p className="hint">
            Not you?{' '}
            <button type="button" className="secondary" onClick={signOut}>
              Sign out
            </button>
          </p>
        </>
      )}
    </main>
  );
}
