import { useState, type FormEvent, type ReactNode } from 'react';
import { useLocation } from '../router';
import { signIn } from '../session';
import { oidcSettings, startOidcSignIn } from './oidc';

/**
 * Signing in keeps the person on the screen they asked for (a deep link, an app's consent
 * screen): a key signs in in place, single sign-on comes back to it.
 */
export function SignInScreen({ why }: { why?: ReactNode }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const oidc = oidcSettings();
  const { path, query } = useLocation();
  const search = query.toString();
  const here = search ? `${path}?${search}` : path;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!key.trim()) return setError('Paste an API key (mbk_…).');
    signIn(key.trim());
  };

  return (
    <main className="signin">
      <h1>Memory Bank</h1>
      {why}
      <form onSubmit={submit} aria-labelledby="signin-title">
        <h2 id="signin-title">Sign in</h2>
        <label htmlFor="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" spellCheck={false} value={key} onChange={(event) => setKey(event.target.value)} placeholder="mbk_…" />
        <p className="hint">The key printed by <code>pnpm cli orgs create</code>, or one made under API keys. It is kept in this tab only.</p>
        <button type="submit">Sign in</button>
        {error ? <p role="alert">{error}</p> : null}
      </form>
      {oidc ? (
        <p>
          <button type="button" className="secondary" onClick={() => startOidcSignIn(oidc, here).catch((cause: Error) => setError(cause.message))}>
            Sign in with single sign-on
          </button>
        </p>
      ) : null}
    </main>
  );
}
