'use client';
import { useMutation } from '@tanstack/react-query';
import type { RouterOutputs } from '../trpc';
import { useTRPC } from '../trpc';
import { useRefresh } from '../use-refresh';

/** What ksef.status answers; undefined while it loads. */
export type KsefStatus = RouterOutputs['ksef']['status'] | undefined;

/**
 * The page's four actions (test, connect the emulator, save a token, save a certificate), whether one is running,
 * and the outcome of the last one that finished: the state card shows it, whichever form started it.
 */
export function useKsefActions() {
  const trpc = useTRPC();
  const onDone = { onSettled: useRefresh(trpc.ksef.pathKey()) };
  const saveToken = useMutation(trpc.ksef.saveToken.mutationOptions(onDone));
  const saveCert = useMutation(trpc.ksef.saveCertificate.mutationOptions(onDone));
  const test = useMutation(trpc.ksef.testConnection.mutationOptions(onDone));
  const emulator = useMutation(trpc.ksef.connectEmulator.mutationOptions(onDone));
  const last = [test, emulator, saveToken, saveCert].find((m) => m.isSuccess || m.isError);
  const lastResult = last?.data as { connected: boolean; error: string | null } | undefined;
  const busy = test.isPending || emulator.isPending || saveToken.isPending || saveCert.isPending;
  return { saveToken, saveCert, test, emulator, last, lastResult, busy };
}

export type KsefActions = ReturnType<typeof useKsefActions>;
