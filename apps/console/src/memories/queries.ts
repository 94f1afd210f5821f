import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, type MemoryFilters, type NewMemory } from '../api';

export const SEARCH_DEBOUNCE_MS = 250;

export function useMemoryList(filters: MemoryFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['memories', filters],
    queryFn: ({ pageParam }) => api.listMemories({ ...filters, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    enabled,
  });
}

/** The value once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Search results for the settled query. Each query has its own cache entry and a stale
 * request is aborted, so an older query's answer arriving late is never shown for a newer one.
 */
export function useMemorySearch(query: string, filters: MemoryFilters) {
  return useQuery({
    queryKey: ['memory-search', query, filters],
    queryFn: ({ signal }) => api.searchMemories(query, filters, signal),
    enabled: query.length > 0,
  });
}

export function useMemory(id: string) {
  return useQuery({ queryKey: ['memory', id], queryFn: () => api.getMemory(id) });
}

export function useSaveMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewMemory) => api.saveMemory(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['memories'] }),
  });
}

export function useUpdateMemory(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, etag }: { body: { content: string; tags: string[] }; etag: string | null }) => api.updateMemory(id, body, etag),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['memory', id] });
      void queryClient.invalidateQueries({ queryKey: ['memories'] });
      void queryClient.invalidateQueries({ queryKey: ['memory-search'] });
    },
  });
}

export function useDeleteMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.deleteMemory(id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: ['memory', id] });
      void queryClient.invalidateQueries({ queryKey: ['memories'] });
      void queryClient.invalidateQueries({ queryKey: ['memory-search'] });
    },
  });
}

export const parseTags = (text: string) =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
