import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, MemoryBankError, type MemoryChange, type MemoryFilters, type NewMemory } from '../api';

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

/** The memory's chain of versions, newest first (one entry when it never replaced or was replaced). */
export function useMemoryHistory(id: string) {
  return useQuery({ queryKey: ['memory-history', id], queryFn: () => api.memoryHistory(id) });
}

export function useSaveMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewMemory) => api.saveMemory(body),
    onSuccess: (saved) => {
      // A duplicate save changed an existing memory (contexts, tags).
      if (saved.duplicate) void queryClient.invalidateQueries({ queryKey: ['memory', saved.id] });
      void queryClient.invalidateQueries({ queryKey: ['memories'] });
      void queryClient.invalidateQueries({ queryKey: ['memory-search'] });
    },
  });
}

/**
 * A change sent with the version the page shows (`If-Match`): a change made meanwhile is
 * refused with 412, and the page then loads the other version. The answer (with its ETag)
 * becomes the page's memory, so a next change needs no reload.
 */
export function useUpdateMemory(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, etag }: { body: MemoryChange; etag: string | null }) => api.updateMemory(id, body, etag),
    onSuccess: (updated) => {
      queryClient.setQueryData(['memory', id], updated);
      void queryClient.invalidateQueries({ queryKey: ['memory-history'] });
      void queryClient.invalidateQueries({ queryKey: ['memories'] });
      void queryClient.invalidateQueries({ queryKey: ['memory-search'] });
    },
    onError: (error) => {
      if (error instanceof MemoryBankError && error.status === 412) void queryClient.invalidateQueries({ queryKey: ['memory', id] });
    },
  });
}

/** Whether a change was refused because the memory changed since the page loaded it. */
export const changedMeanwhile = (error: Error | null) => error instanceof MemoryBankError && error.status === 412;

export function useDeleteMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.deleteMemory(id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: ['memory', id] });
      // Deleting the newest version deletes the chain: every version's page and history is stale.
      void queryClient.invalidateQueries({ queryKey: ['memory'] });
      void queryClient.invalidateQueries({ queryKey: ['memory-history'] });
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
