'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { DeliveriesTable } from './deliveries-table';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

export function WebhookLog({ id }: { id: string }) {
  const { t } = useI18n();
  const w = t.webhooks;
  const trpc = useTRPC();
  const endpoint = useQuery(trpc.webhooks.get.queryOptions({ id }));
  const log = useQuery({ ...trpc.webhooks.deliveries.queryOptions({ endpointId: id }), refetchInterval: 3_000 });
  return (
    <>
      <p>
        <Link href="/dashboard/webhooks">← {w.back}</Link>
      </p>
      <h1>{w.deliveryLog}</h1>
      <p className="mono">{endpoint.data?.url ?? '\u00a0'}</p>
      <section className="card">{log.data ? <DeliveriesTable deliveries={log.data.data} /> : <p className="muted">{t.common.loading}</p>}</section>
    </>
  );
}
