'use client';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/** Reloads every query under `key` (a router's pathKey()): what a mutation calls once it has changed the server's data. */
export function useRefresh(key: QueryKey): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: key });
}
