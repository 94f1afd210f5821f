import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';

export function useWorkstreams() {
  return useInfiniteQuery({
    queryKey: ['workstreams'],
    queryFn: ({ pageParam }) => api.listWorkstreams(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useWorkstreamSearch(query: string) {
  return useQuery({ queryKey: ['workstream-search', query], queryFn: () => api.searchWorkstreams(query), enabled: query.length > 0 });
}

export function useWorkstream(id: string) {
  return useQuery({ queryKey: ['workstream', id], queryFn: () => api.getWorkstream(id) });
}

export function useWorkstreamEvents(id: string) {
  return useInfiniteQuery({
    queryKey: ['workstream', id, 'events'],
    queryFn: ({ pageParam }) => api.workstreamEvents(id, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_after ?? undefined,
  });
}

export function useWorkstreamActions(id: string) {
  return useQuery({ queryKey: ['workstream', id, 'actions'], queryFn: () => api.workstreamActions(id) });
}

export function useRememberEvent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sequence: number) => api.rememberEvent(id, sequence),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['memories'] }),
  });
}

export function useDeleteWorkstream() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.deleteWorkstream(id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: ['workstream', id] });
      void queryClient.invalidateQueries({ queryKey: ['workstreams'] });
    },
  });
}
