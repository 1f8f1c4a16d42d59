'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { DOCUMENT_SORTS } from '@/server/documents/document-filters';
import { DOCUMENT_KINDS, DOCUMENT_STATUSES, isInFlight, type DocumentStatus } from '@/server/facts/document-statuses';
import { formatMoney } from './format';
import { useI18n } from './i18n';
import { plural } from '@/app/i18n/plural';
import { invoiceListParams, type InvoiceListState } from './invoice-list-params';
import { StatusBadge } from './status-badge';
import { useTRPC } from './trpc';

const PAGE_SIZE = 20;

/**
 * The document list. `state` comes from the address (app/dashboard/invoices/page.tsx): every filter, sort and page
 * change pushes a new address, so back/forward and reload show the same list.
 */
export function InvoicesTable({ state }: { state: InvoiceListState }) {
  const { t, locale } = useI18n();
  const iv = t.invoices;
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  // the list as last asked for: a second change before the address catches up builds on the first
  const [draft, setDraft] = useState(state);
  const [typed, setTyped] = useState(state.query ?? '');
  const address = invoiceListParams(state).toString();
  const [seen, setSeen] = useState(address);
  if (address !== seen) {
    setSeen(address);
    // a new address from elsewhere (back/forward, a link): the list and the search box follow it; our own push
    // arriving leaves alone what was typed since
    if (address !== invoiceListParams(draft).toString()) {
      setDraft(state);
      setTyped(state.query ?? '');
    }
  }
  const go = (change: Partial<InvoiceListState>) => {
    const next = { ...draft, page: 1, ...change };
    setDraft(next);
    const params = invoiceListParams(next);
    router.push(params.size ? `${pathname}?${params}` : pathname, { scroll: false });
  };
  const { page } = draft;
  const { data } = useQuery({
    ...trpc.invoices.search.queryOptions({ ...draft, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    // live refresh: fast while something on the page can still change; the first page also slowly, since new
    // documents (from the API or a connected store) appear at its top at any time
    refetchInterval: (q) => (q.state.data?.rows.some((r) => isInFlight(r.status)) ? 2_000 : page === 1 ? 5_000 : false),
  });
  const inFlight = data?.rows.some((r) => isInFlight(r.status)) ?? false;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const exportHref = `/dashboard/invoices/export?${invoiceListParams(draft, { withPage: false })}`;
  return (
    <>
      <h1>{iv.title}</h1>
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          go({ query: typed.trim() || undefined });
        }}
      >
        <div className="field">
          <label htmlFor="status-filter">{iv.filterStatus}</label>
          <select id="status-filter" value={draft.status ?? ''} onChange={(e) => go({ status: (e.target.value || undefined) as DocumentStatus | undefined })}>
            <option value="">{iv.all}</option>
            {DOCUMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.status[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="kind-filter">{iv.filterKind}</label>
          <select id="kind-filter" value={draft.kind ?? ''} onChange={(e) => go({ kind: (e.target.value || undefined) as InvoiceListState['kind'] })}>
            <option value="">{iv.all}</option>
            {DOCUMENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {iv.kinds[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="from-filter">{iv.from}</label>
          <input id="from-filter" type="date" value={draft.from ?? ''} onChange={(e) => go({ from: e.target.value || undefined })} />
        </div>
        <div className="field">
          <label htmlFor="to-filter">{iv.to}</label>
          <input id="to-filter" type="date" value={draft.to ?? ''} onChange={(e) => go({ to: e.target.value || undefined })} />
        </div>
        <div className="field">
          <label htmlFor="sort">{iv.sort}</label>
          <select id="sort" value={draft.sort} onChange={(e) => go({ sort: e.target.value as InvoiceListState['sort'] })}>
            {DOCUMENT_SORTS.map((s) => (
              <option key={s} value={s}>
                {iv.sorts[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="dir">{iv.dir}</label>
          <select id="dir" value={draft.dir} onChange={(e) => go({ dir: e.target.value as InvoiceListState['dir'] })}>
            <option value="desc">{iv.dirs.desc}</option>
            <option value="asc">{iv.dirs.asc}</option>
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
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setTyped('');
            go({ status: undefined, kind: undefined, query: undefined, from: undefined, to: undefined, sort: 'created', dir: 'desc' });
          }}
        >
          {iv.clear}
        </button>
        <a className="button secondary" href={exportHref} download>
          {iv.exportCsv}
        </a>
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
      <nav className="pager" aria-label={`${t.common.page}`}>
        <button type="button" onClick={() => go({ page: page - 1 })} disabled={page <= 1}>
          {t.common.previous}
        </button>
        <span>
          {t.common.page} {page} {t.common.of} {pages} · {plural(locale, data?.total ?? 0, iv.count)}
        </span>
        <button type="button" onClick={() => go({ page: page + 1 })} disabled={page >= pages}>
          {t.common.next}
        </button>
      </nav>
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
    </>
  );
}
