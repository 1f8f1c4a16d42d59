'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { readError } from '../error-text';
import { useI18n } from '../i18n';
import { useTRPC } from '../trpc';

/** Sends a document in error (or skipped for a fixable cause) through the pipeline again; the page then follows it. */
export function RetryButton({ id }: { id: string }) {
  const { t } = useI18n();
  const d = t.detail;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const retry = useMutation(
    trpc.invoices.retry.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.invoices.pathKey() }),
    }),
  );
  const failure = readError(retry.error, t);
  return (
    <div>
      <p className="muted">{d.retryHelp}</p>
      <button type="button" data-testid="retry" disabled={retry.isPending} onClick={() => retry.mutate({ id })}>
        {retry.isPending ? d.retrying : d.retry}
      </button>
      {failure ? <p className="field-error">{failure.message}</p> : null}
    </div>
  );
}
