'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '../trpc';

/** What offline.status answers; undefined while it loads. */
export type OfflineStatus = RouterOutputs['offline']['status'] | undefined;

/** Mutation options that reload the offline status once the mutation settles. */
export function useRefreshOffline() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return { onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.offline.pathKey() }) };
}
