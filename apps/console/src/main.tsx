import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryBankError } from './api';
import { App } from './app';
import { onCredentialChange, signOut } from './session';
import './styles.css';

/** A refused credential (revoked key, expired token) signs out: the sign-in screen is next. */
function signOutWhenRefused(error: unknown) {
  if (error instanceof MemoryBankError && error.status === 401) signOut();
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: signOutWhenRefused }),
  mutationCache: new MutationCache({ onError: signOutWhenRefused }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      // A problem the API answered (404, 403…) does not get better by asking again.
      retry: (failures, error) => !(error instanceof MemoryBankError && error.status < 500) && failures < 2,
    },
  },
});

// Nothing fetched for one credential is ever shown for another (the admin check included).
onCredentialChange(() => queryClient.clear());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
