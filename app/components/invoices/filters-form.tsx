'use client';
import { DOCUMENT_SORTS } from '@/server/documents/document-filters';
import { DOCUMENT_KINDS, DOCUMENT_STATUSES, type DocumentStatus } from '@/server/facts/document-statuses';
import { useI18n } from '../i18n';
import { invoiceListParams, type InvoiceListState } from '../invoice-list-params';

type Props = {
  draft: InvoiceListState;
  typed: string;
  setTyped: (text: string) => void;
  go: (change: Partial<InvoiceListState>) => void;
};

/** Status, kind, dates, sort, search; clear; and the CSV export of the list as filtered. */
export function InvoiceFilters({ draft, typed, setTyped, go }: Props) {
  const { t } = useI18n();
  const iv = t.invoices;
  const exportHref = `/dashboard/invoices/export?${invoiceListParams(draft, { withPage: false })}`;
  return (
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
      <SortFields draft={draft} go={go} />
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
  );
}

/** The list's sort column and direction. */
function SortFields({ draft, go }: Pick<Props, 'draft' | 'go'>) {
  const iv = useI18n().t.invoices;
  return (
    <>
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
    </>
  );
}
