'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SerializedDocument } from '@/server/documents/serialize-document';
import { readError } from './error-text';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { useMay } from './role';
import { useTRPC } from './trpc';

/** A document's `offline` facts on the detail page, and the technical correction of a rejected offline document. */
export function OfflineFacts({ doc }: { doc: Pick<SerializedDocument, 'id' | 'status' | 'offline' | 'last_error'> }) {
  const { t, locale } = useI18n();
  const o = t.offline;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const correct = useMutation(
    trpc.offline.technicalCorrection.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.invoices.pathKey() }) }),
  );
  const mayCorrect = useMay('manage');
  const offline = doc.offline;
  if (!offline) return null;
  const technical = mayCorrect && doc.status === 'rejected' && [430, 440, 450].includes(doc.last_error?.ksef_code ?? 0);
  return (
    <>
      <dt>{o.mode}</dt>
      <dd data-testid="offline-mode">{o.modes[offline.mode]}</dd>
      <dt>{o.issuedAt}</dt>
      <dd data-testid="offline-issued">{offline.issued_at ? formatDateTime(offline.issued_at * 1000, locale) : '—'}</dd>
      <dt>{o.deadline}</dt>
      <dd className={offline.deadline_missed ? 'field-error' : undefined} data-testid="offline-deadline">
        {offline.deadline
          ? formatDateTime(offline.deadline * 1000, locale)
          : offline.mode === 'total_failure'
            ? o.noDeadlineTotal
            : offline.mode === 'offline24'
              ? '—'
              : o.noDeadline}
        {offline.deadline_missed ? ` – ${o.deadlineMissed}` : ''}
      </dd>
      {offline.jpk_marker ? (
        <>
          <dt>{o.jpkMarker}</dt>
          <dd data-testid="offline-jpk-marker">{offline.jpk_marker}</dd>
        </>
      ) : null}
      {offline.technical_correction_of ? (
        <>
          <dt>{o.correctedHash}</dt>
          <dd className="mono">{offline.technical_correction_of}</dd>
        </>
      ) : null}
      {technical ? (
        <>
          <dt />
          <dd>
            <button type="button" onClick={() => correct.mutate({ id: doc.id })} disabled={correct.isPending}>
              {o.correct}
            </button>{' '}
            <span role="status" className="field-error">
              {readError(correct.error, t)?.message ?? ''}
            </span>
          </dd>
        </>
      ) : null}
    </>
  );
}
