'use client';
import Link from 'next/link';
import { formatMoney } from '../format';
import { useI18n } from '../i18n';
import { StatusBadge } from '../status-badge';
import type { InvoiceSearchData } from './types';

/** One page of documents; a row each, or a line saying there are none or that they are loading. */
export function InvoiceRows({ data }: { data: InvoiceSearchData }) {
  const { t, locale } = useI18n();
  const iv = t.invoices;
  return (
    <div className="table-wrap stack">
      <table aria-label={iv.title}>
        <thead>
          <tr>
            <th scope="col">{iv.cols.number}</th>
            <th scope="col">{iv.cols.kind}</th>
            <th scope="col">{iv.cols.order}</th>
            <th scope="col">{iv.cols.buyer}</th>
            <th scope="col">{iv.cols.buyerNip}</th>
            <th scope="col">{iv.cols.date}</th>
            <th scope="col" className="num">
              {iv.cols.total}
            </th>
            <th scope="col">{iv.cols.status}</th>
            <th scope="col">{iv.cols.ksef}</th>
          </tr>
        </thead>
        <tbody>
          {data?.rows.map((r) => (
            <tr key={r.id}>
              <td data-label={iv.cols.number}>
                <Link href={`/dashboard/invoices/${r.id}`}>{r.number ?? r.id}</Link>
              </td>
              <td data-label={iv.cols.kind}>{t.kind[r.kind]}</td>
              <td data-label={iv.cols.order}>{r.orderExternalId}</td>
              <td data-label={iv.cols.buyer}>{r.buyerName ?? '—'}</td>
              <td data-label={iv.cols.buyerNip}>{r.buyerNip ?? '—'}</td>
              <td data-label={iv.cols.date}>{r.issueDate ?? '—'}</td>
              <td className="num" data-label={iv.cols.total}>
                {formatMoney(r.totalGrossGrosze, r.currency, locale)}
              </td>
              <td data-label={iv.cols.status}>
                <StatusBadge status={r.status} />
              </td>
              <td className="mono" data-label={iv.cols.ksef}>
                {r.ksefNumber ?? '—'}
              </td>
            </tr>
          ))}
          {data && data.rows.length === 0 ? (
            <tr>
              <td colSpan={9}>{iv.empty}</td>
            </tr>
          ) : null}
          {!data ? (
            <tr>
              <td colSpan={9}>{t.common.loading}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
