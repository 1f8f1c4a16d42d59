'use client';
import { formatDateTime, formatMoney } from '../format';
import { useI18n } from '../i18n';
import type { InvoiceDetailData } from './types';

type Order = NonNullable<InvoiceDetailData['order']>;

/** An invoice's buyer and the order's lines and shipping as the shop sent them. */
export function OrderCard({ order, currency }: { order: Order; currency: string | null }) {
  const { t, locale } = useI18n();
  const d = t.detail;
  const money = (g: number | null) => formatMoney(g, currency, locale);
  return (
    <section className="card" aria-labelledby="buyer-h">
      <h2 id="buyer-h">{d.buyer}</h2>
      <p>
        {order.buyer.name}, NIP {order.buyer.nip}
        <br />
        {order.buyer.address1}
        {order.buyer.address2 ? `, ${order.buyer.address2}` : ''} ({order.buyer.countryCode})
        {order.buyer.email ? (
          <>
            <br />
            {order.buyer.email}
          </>
        ) : null}
      </p>
      <p className="muted">
        {d.paidAt}: {formatDateTime(order.paidAt, locale)} · {d.payment}: {t.payment[order.paymentMethod]}
      </p>
      <div className="table-wrap">
        <table aria-label={d.lines}>
          <thead>
            <tr>
              <th scope="col">{d.lineName}</th>
              <th scope="col">{d.sku}</th>
              <th scope="col" className="num">
                {d.qty}
              </th>
              <th scope="col" className="num">
                {d.unitPrice}
              </th>
              <th scope="col" className="num">
                {d.discount}
              </th>
              <th scope="col" className="num">
                {d.gross}
              </th>
              <th scope="col" className="num">
                {d.vat}
              </th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((l, i) => (
              <tr key={i}>
                <td>{l.name}</td>
                <td>{l.sku ?? '—'}</td>
                <td className="num">{l.quantity}</td>
                <td className="num">{money(l.unitPriceGrosze)}</td>
                <td className="num">{money(l.discountGrosze)}</td>
                <td className="num">{money(l.grossGrosze)}</td>
                <td className="num">{l.vatRate}%</td>
              </tr>
            ))}
            {order.shipping.map((s, i) => (
              <tr key={`s${i}`}>
                <td>
                  {d.shipping}: {s.name}
                </td>
                <td>—</td>
                <td className="num">1</td>
                <td className="num">{money(s.grossGrosze)}</td>
                <td className="num">—</td>
                <td className="num">{money(s.grossGrosze)}</td>
                <td className="num">{s.vatRate}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
