'use client';
import { useTRPC, type RouterOutputs } from '../trpc';
import { useRefresh } from '../use-refresh';

/** What offline.status answers; undefined while it loads. */
export type OfflineStatus = RouterOutputs['offline']['status'] | undefined;

/** Mutation options that reload the offline status once the mutation settles. */
export function useRefreshOffline() {
  const trpc = useTRPC();
  return { onSettled: useRefresh(trpc.offline.pathKey()) };
}
