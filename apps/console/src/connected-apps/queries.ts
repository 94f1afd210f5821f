import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';

/** The signed-in person's grants, or with `all` (admins) the whole org's. */
export function useGrants(all: boolean) {
  return useQuery({ queryKey: ['oauth-grants', { all }], queryFn: () => api.listGrants(all) });
}

export function useRevokeGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.revokeGrant(id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['oauth-grants'] });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
  });
}
