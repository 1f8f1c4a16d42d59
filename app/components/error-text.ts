import { TRPCClientError } from '@trpc/client';

export type FieldError = { message: string; param: string | null };

/**
 * The message of a failed call and the field it names (the service's `param`), for errors beside fields; a code the
 * dictionary's `errorCodes` translates shows that text instead of the service's English message.
 */
export function readError(err: unknown, codes: Record<string, string> = {}): FieldError | null {
  if (!err) return null;
  if (err instanceof TRPCClientError) {
    const data = err.data as { appError?: { code: string; param: string | null } | null } | undefined;
    const code = data?.appError?.code;
    return { message: (code && codes[code]) || err.message, param: data?.appError?.param ?? null };
  }
  return { message: err instanceof Error ? err.message : String(err), param: null };
}
