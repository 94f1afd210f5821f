import { useState, type FormEvent } from 'react';
import { signIn } from '../session';
import { oidcSettings, startOidcSignIn } from './oidc';

export function SignInScreen() {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const oidc = oidcSettings();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!key.trim()) return setError('Paste an API key (mbk_…).');
    signIn(key.trim());
  };

  return (
    <main className="signin">
      <h1>Memory Bank</h1>
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
          <button type="button" className="secondary" onClick={() => startOidcSignIn(oidc).catch((cause: Error) => setError(cause.message))}>
            Sign in with single sign-on
          </button>
        </p>
      ) : null}
    </main>
  );
}
