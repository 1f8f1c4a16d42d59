'use client';
import { formatMoney } from '../format';
import { useI18n } from '../i18n';
import type { InvoiceSearchData } from './types';

/** The filtered list's totals by currency. */
export function InvoiceTotals({ data }: { data: InvoiceSearchData }) {
  const { t, locale } = useI18n();
  const iv = t.invoices;
  return (
    <section className="stack" aria-labelledby="totals-title">
      <h2 id="totals-title">{iv.totals}</h2>
      {data && data.totals.length === 0 ? <p className="muted">{iv.totalsNone}</p> : null}
      {data && data.totals.length > 0 ? (
        <div className="table-wrap">
          <table aria-labelledby="totals-title">
            <thead>
              <tr>
                <th scope="col">{iv.totalsCols.currency}</th>
                <th scope="col" className="num">
                  {iv.totalsCols.documents}
                </th>
                <th scope="col" className="num">
                  {iv.totalsCols.net}
                </th>
                <th scope="col" className="num">
                  {iv.totalsCols.vat}
                </th>
                <th scope="col" className="num">
                  {iv.totalsCols.gross}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.totals.map((c) => (
                <tr key={c.currency}>
                  <td data-label={iv.totalsCols.currency}>{c.currency}</td>
                  <td className="num" data-label={iv.totalsCols.documents}>
                    {c.documents}
                  </td>
                  <td className="num" data-label={iv.totalsCols.net}>
                    {formatMoney(c.netGrosze, c.currency, locale)}
                  </td>
                  <td className="num" data-label={iv.totalsCols.vat}>
                    {formatMoney(c.vatGrosze, c.currency, locale)}
                  </td>
                  <td className="num" data-label={iv.totalsCols.gross}>
                    {formatMoney(c.grossGrosze, c.currency, locale)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
