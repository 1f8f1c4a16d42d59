'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { isInFlight } from '@/server/facts/document-statuses';
import { DeliveriesTable } from './deliveries-table';
import { useI18n } from './i18n';
import { CorrectionsCard } from './invoice-detail/corrections-card';
import { EventsCard } from './invoice-detail/events-card';
import { FactsCard } from './invoice-detail/facts-card';
import { FilesCard } from './invoice-detail/files-card';
import { OrderCard } from './invoice-detail/order-card';
import { RefundCard } from './invoice-detail/refund-card';
import { TimelineCard } from './invoice-detail/timeline-card';
import type { InvoiceDetailData } from './invoice-detail/types';
import { StatusBadge } from './status-badge';
import { useTRPC } from './trpc';

/**
 * One document's page. `initial` is what the server page read for the first paint (null when it could not: the
 * browser's query then shows the error); the query takes over from it and keeps following the document.
 */
export function InvoiceDetail({ id, initial }: { id: string; initial: InvoiceDetailData | null }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const { data, error } = useQuery({
    ...trpc.invoices.detail.queryOptions({ id }),
    initialData: initial ?? undefined,
    // until the document is final, its PDF stored, its e-mail settled and its last step a minute old, keep following it
    refetchInterval: (q) => (q.state.data && stillMoving(q.state.data) ? 2_000 : false),
  });
  if (error) return <p className="field-error">{error.message}</p>;
  if (!data) return <p className="muted page-loading">{t.common.loading}</p>;
  const doc = data.document;
  return (
    <>
      <p>
        <Link href="/dashboard/invoices">← {t.detail.back}</Link>
      </p>
      <h1>
        {t.kind[data.kind]} {doc.number ?? doc.id} <StatusBadge status={doc.status} />
      </h1>
      <div className="grid-2">
        <FactsCard data={data} />
        <TimelineCard steps={data.timeline} />
      </div>
      {data.order ? <OrderCard order={data.order} currency={doc.currency} /> : null}
      {data.refund ? <RefundCard refund={data.refund} currency={doc.currency} /> : null}
      <FilesCard data={data} />
      {'corrections' in doc ? <CorrectionsCard invoice={doc} /> : null}
      <EventsCard events={data.events} />
      {data.deliveries ? (
        <section className="card" aria-labelledby="deliveries-h">
          <h2 id="deliveries-h">{t.detail.deliveries}</h2>
          <DeliveriesTable deliveries={data.deliveries} showEndpoint />
        </section>
      ) : null}
    </>
  );
}

/** Steps that follow one another within seconds (the e-mail claimed then sent, webhook retries, the write-back). */
const RECENT_MS = 60_000;

const stillMoving = (data: InvoiceDetailData) =>
  isInFlight(data.document.status) ||
  (data.document.status === 'accepted' && !data.hasPdf) ||
  data.mailStatus === 'pending' ||
  data.timeline.some((s) => Date.now() - new Date(s.at).getTime() < RECENT_MS);
