'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { DeliveriesTable } from './deliveries-table';
import { readError } from './error-text';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

export function WebhookLog({ id }: { id: string }) {
  const { t } = useI18n();
  const w = t.webhooks;
  const trpc = useTRPC();
  const endpoint = useQuery(trpc.webhooks.get.queryOptions({ id }));
  const log = useQuery({ ...trpc.webhooks.deliveries.queryOptions({ endpointId: id }), refetchInterval: 3_000 });
  const sendTest = useMutation(trpc.webhooks.sendTest.mutationOptions({ onSettled: () => void log.refetch() }));
  const outcome = sendTest.data
    ? (sendTest.data.delivered ? w.testDelivered : w.testFailed).replace('{status}', String(sendTest.data.statusCode ?? sendTest.data.error ?? '—'))
    : readError(sendTest.error, t)?.message;
  return (
    <>
      <p>
        <Link href="/dashboard/webhooks">← {w.back}</Link>
      </p>
      <h1>{w.deliveryLog}</h1>
      <p className="mono">{endpoint.data?.url ?? '\u00a0'}</p>
      <p className="row-actions">
        <button
          type="button"
          onClick={() => sendTest.mutate({ id })}
          disabled={sendTest.isPending || endpoint.data?.status !== 'enabled'}
          aria-describedby="send-test-hint"
        >
          {w.sendTest}
        </button>
        <span role="status" className={sendTest.data?.delivered ? 'ok' : 'field-error'}>
          {sendTest.isPending ? w.testSending : (outcome ?? '')}
        </span>
      </p>
      <p id="send-test-hint" className="field-hint">
        {w.sendTestHint}
      </p>
      <section className="card">{log.data ? <DeliveriesTable deliveries={log.data.data} /> : <p className="muted">{t.common.loading}</p>}</section>
    </>
  );
}
