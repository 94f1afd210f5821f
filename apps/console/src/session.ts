import { useSyncExternalStore } from 'react';

/**
 * The signed-in credential (an API key or an OIDC token) lives in sessionStorage only: it
 * goes with the tab, never into a URL, localStorage or a cookie.
 */
const CREDENTIAL = 'memory-bank.credential';
const listeners = new Set<() => void>();

export function currentCredential(): string | null {
  return sessionStorage.getItem(CREDENTIAL);
}

export function signIn(credential: string): void {
  sessionStorage.setItem(CREDENTIAL, credential);
  listeners.forEach((listener) => listener());
}

export function signOut(): void {
  sessionStorage.removeItem(CREDENTIAL);
  listeners.forEach((listener) => listener());
}

/** Calls `listener` after every sign-in and sign-out. */
export function onCredentialChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useCredential(): string | null {
  return useSyncExternalStore(onCredentialChange, currentCredential);
}
