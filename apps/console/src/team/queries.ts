import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type OrgChange, type Role } from '../api';

export function useMembers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: ['members'], queryFn: api.listMembers, enabled });
}

export function useMemberMemories(userId: string) {
  return useInfiniteQuery({
    queryKey: ['member-memories', userId],
    queryFn: ({ pageParam }) => api.memberMemories(userId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useAddMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: Role }) => api.addMember(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['members'] }),
  });
}

export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => api.changeRole(userId, role),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['members'] }),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.removeMember(userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['members'] }),
  });
}

export function usePurgeMember(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.purgeMember(userId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['member-memories', userId] });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
  });
}

export function useDeleteMemberMemory(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.deleteMemory(id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['member-memories', userId] });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
  });
}

/** Changes org settings; the answer is the org every screen reads (`useAdminOrg`). */
export function useUpdateOrg() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: OrgChange) => api.updateOrg(change),
    onSuccess: (org) => {
      queryClient.setQueryData(['org'], org);
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
  });
}
