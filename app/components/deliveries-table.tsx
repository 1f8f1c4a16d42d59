'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DeliveryLogEntry } from '@/server/webhooks/list-deliveries';
import { DeliveryDetails } from './deliveries/delivery-details';
import { readError } from './error-text';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { useMay } from './role';
import { useTRPC } from './trpc';

/** Attempts newest first, each expandable to its request and response; resend queues one more attempt. */
export function DeliveriesTable({ deliveries, showEndpoint = false }: { deliveries: DeliveryLogEntry[]; showEndpoint?: boolean }) {
  const { t, locale } = useI18n();
  const w = t.webhooks;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const canResend = useMay('manage');
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: (r) => {
        setNotice(w.resent.replace('{n}', String(r.attempt)));
        setTimeout(() => void queryClient.invalidateQueries(), 1_500);
      },
    }),
  );
  if (deliveries.length === 0) return <p className="muted">{t.detail.noDeliveries}</p>;
  return (
    <>
      <p role="status" className="ok">
        {notice ?? readError(resend.error, t)?.message ?? '\u00a0'}
      </p>
      <div className="table-wrap">
        <table aria-label={w.deliveryLog}>
          <thead>
            <tr>
              <th scope="col">{w.cols.at}</th>
              <th scope="col">{w.cols.event}</th>
              {showEndpoint ? <th scope="col">{w.url}</th> : null}
              <th scope="col" className="num">
                {w.cols.attempt}
              </th>
              <th scope="col">{w.cols.result}</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id} data-delivered={d.delivered}>
                <td>{formatDateTime(d.at, locale)}</td>
                <td>
                  <DeliveryDetails delivery={d} />
                </td>
                {showEndpoint ? <td className="mono">{d.url}</td> : null}
                <td className="num">{d.attempt}</td>
                <td>
                  <span className={`badge ${d.delivered ? 'badge-accepted' : 'badge-rejected'}`}>
                    {d.delivered ? w.delivered : w.failed} {d.statusCode ?? ''}
                  </span>
                </td>
                <td>
                  {canResend && !d.test ? (
                    <button type="button" onClick={() => resend.mutate({ eventId: d.eventId, endpointId: d.endpointId })} disabled={resend.isPending}>
                      {w.resend}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
