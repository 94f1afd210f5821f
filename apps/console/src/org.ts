import { useQuery } from '@tanstack/react-query';
import { api, MemoryBankError } from './api';
import { useCredential } from './session';

/**
 * The org when the signed-in person is an admin or owner with an admin-scoped credential
 * (only they may read it; members get 403): what decides whether admin screens and
 * admin-only controls are shown. The API refuses members anyway.
 */
export function useAdminOrg() {
  const credential = useCredential();
  const org = useQuery({
    queryKey: ['org'],
    queryFn: async () => {
      try {
        return await api.getOrg();
      } catch (error) {
        if (error instanceof MemoryBankError && error.status === 403) return null;
        throw error;
      }
    },
    enabled: credential !== null,
    staleTime: Infinity,
  });
  return { isAdmin: Boolean(org.data), org: org.data ?? null, known: org.isSuccess };
}
