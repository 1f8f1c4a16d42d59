'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { isInFlight } from '@/server/facts/document-statuses';
import { plural } from '@/app/i18n/plural';
import { useI18n } from './i18n';
import type { InvoiceListState } from './invoice-list-params';
import { InvoiceFilters } from './invoices/filters-form';
import { InvoiceRows } from './invoices/rows-table';
import { InvoiceTotals } from './invoices/totals';
import { useListAddress } from './invoices/use-list-address';
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
  const { draft, typed, setTyped, go } = useListAddress(state);
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
  return (
    <>
      <h1>{iv.title}</h1>
      <InvoiceFilters draft={draft} typed={typed} setTyped={setTyped} go={go} />
      <p className="muted live-note" aria-live="polite">
        {inFlight ? iv.live : '\u00a0'}
      </p>
      <InvoiceRows data={data} />
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
      <InvoiceTotals data={data} />
    </>
  );
}
