import { useMutation, useQuery } from '@tanstack/react-query';
import { api, MemoryBankError, type ConsentDecision } from '../api';

/** What the app asks for; asked once (the request it belongs to does not change). */
export function useConsentRequest(uid: string) {
  return useQuery({ queryKey: ['consent', uid], queryFn: () => api.getConsent(uid), staleTime: Infinity });
}

/**
 * Allow or deny; the answer names where the browser goes next (back to the authorization
 * server, which sends it on to the app), so a success leaves the console.
 */
export function useConsentDecision(uid: string) {
  return useMutation({
    mutationFn: (decision: ConsentDecision) => api.decideConsent(uid, decision),
    onSuccess: ({ redirect_to }) => window.location.assign(redirect_to),
  });
}

/** A 404 means the interaction is gone: expired, finished, or its cookie is in another browser. */
export function describeConsentError(error: Error): string {
  if (error instanceof MemoryBankError) {
    return error.status === 404 ? 'This sign-in request has expired or was started in another browser. Start again from the app.' : error.detail;
  }
  return error.message;
}
