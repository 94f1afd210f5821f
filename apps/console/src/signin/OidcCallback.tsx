import { useEffect, useRef, useState } from 'react';
import { Link, navigate } from '../router';
import { finishOidcSignIn, oidcSettings } from './oidc';

export function OidcCallback() {
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    // Once: the code can be traded only once (StrictMode runs effects twice in development).
    if (started.current) return;
    started.current = true;
    const settings = oidcSettings();
    if (!settings) return setError('Single sign-on is not configured on this server.');
    finishOidcSignIn(settings, new URLSearchParams(window.location.search))
      .then((returnTo) => navigate(returnTo, { replace: true }))
      .catch((cause: Error) => setError(cause.message));
  }, []);
  return (
    <main className="signin">
      {error ? (
        <>
          <p role="alert">{error}</p>
          <Link to="/">Back to sign in</Link>
        </>
      ) : (
        <p role="status">Signing in…</p>
      )}
    </main>
  );
}
