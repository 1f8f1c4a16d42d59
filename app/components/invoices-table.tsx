'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { DocumentStatus } from '@/server/documents/statuses';
import { formatMoney } from './format';
import { useI18n } from './i18n';
import { StatusBadge } from './status-badge';
import { DOCUMENT_STATUSES, isInFlight } from '@/server/documents/statuses';
import { useTRPC } from './trpc';

const PAGE_SIZE = 20;

/** `initialStatus`: the filter a link asked for (`?status=error` from the overview's attention list). */
export function InvoicesTable({ initialStatus }: { initialStatus?: DocumentStatus }) {
  const { t, locale } = useI18n();
  const iv = t.invoices;
  const trpc = useTRPC();
  const [status, setStatus] = useState<DocumentStatus | ''>(initialStatus ?? '');
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const { data } = useQuery({
    ...trpc.invoices.search.queryOptions({ status: status || undefined, query: query || undefined, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    // live refresh: fast while something on the page can still change; the first page also slowly, since new
    // documents (from the API or a connected store) appear at its top at any time
    refetchInterval: (q) => (q.state.data?.rows.some((r) => isInFlight(r.status)) ? 2_000 : page === 1 ? 5_000 : false),
  });
  const inFlight = data?.rows.some((r) => isInFlight(r.status)) ?? false;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  return (
    <>
      <h1>{iv.title}</h1>
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(typed.trim());
          setPage(1);
        }}
      >
        <div className="field">
          <label htmlFor="status-filter">{iv.filterStatus}</label>
          <select
            id="status-filter"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as DocumentStatus | '');
              setPage(1);
            }}
          >
            <option value="">{iv.all}</option>
            {DOCUMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.status[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor="search">{iv.search}</label>
          <input id="search" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} aria-describedby="search-hint" />
          <p id="search-hint" className="field-hint">
            {iv.searchHint}
          </p>
        </div>
        <button type="submit">{iv.search}</button>
      </form>
      <p className="muted live-note" aria-live="polite">
        {inFlight ? iv.live : '\u00a0'}
      </p>
      <div className="table-wrap stack">
        <table aria-label={iv.title}>
          <thead>
            <tr>
              <th scope="col">{iv.cols.number}</th>
              <th scope="col">{iv.cols.kind}</th>
              <th scope="col">{iv.cols.order}</th>
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
                <td colSpan={8}>{iv.empty}</td>
              </tr>
            ) : null}
            {!data ? (
              <tr>
                <td colSpan={8}>{t.common.loading}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <nav className="pager" aria-label={`${t.common.page}`}>
        <button type="button" onClick={() => setPage((p) => p - 1)} disabled={page <= 1}>
          {t.common.previous}
        </button>
        <span>
          {t.common.page} {page} {t.common.of} {pages} · {data?.total ?? 0} {iv.count}
        </span>
        <button type="button" onClick={() => setPage((p) => p + 1)} disabled={page >= pages}>
          {t.common.next}
        </button>
      </nav>
    </>
  );
}
