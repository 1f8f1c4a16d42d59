'use client';
import { formatMoney } from '../format';
import { useI18n } from '../i18n';
import type { InvoiceDetailData } from './types';

type Refund = NonNullable<InvoiceDetailData['refund']>;

/** A correction's refund: the reason, the returned lines and any shipping refunded. */
export function RefundCard({ refund, currency }: { refund: Refund; currency: string | null }) {
  const { t, locale } = useI18n();
  const d = t.detail;
  const money = (g: number | null) => formatMoney(g, currency, locale);
  return (
    <section className="card" aria-labelledby="refund-h">
      <h2 id="refund-h">{d.refund}</h2>
      {refund.reason ? (
        <p>
          {d.reason}: {refund.reason}
        </p>
      ) : null}
      <ul>
        {refund.lines.map((l, i) => (
          <li key={i}>
            {l.quantity} × {l.name} ({money(l.unitPriceGrosze)}, {l.vatRate}%)
          </li>
        ))}
        {refund.shippingGrosze ? (
          <li>
            {d.shipping}: {money(refund.shippingGrosze)}
          </li>
        ) : null}
      </ul>
    </section>
  );
}
