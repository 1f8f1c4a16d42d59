import { ZDocumentFilters, ZDocumentSort, type DocumentFilters, type DocumentSort } from '@/server/documents/document-filters';

export type InvoiceListState = DocumentFilters & DocumentSort & { page: number };

const DEFAULTS = { sort: 'created', dir: 'desc', page: 1 } as const;
const FIELDS = ['status', 'kind', 'query', 'from', 'to', 'sort', 'dir'] as const;

/** The invoice list's state from the page's search params; a value that does not parse is dropped, not an error. */
export function readInvoiceListParams(params: Record<string, string | string[] | undefined>): InvoiceListState {
  const one = (k: string) => {
    const v = params[k];
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const filters = ZDocumentFilters.shape;
  const sorts = ZDocumentSort.shape;
  const pick = <T>(schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false } }, v: string | undefined) => {
    const r = schema.safeParse(v);
    return r.success ? r.data : undefined;
  };
  const page = Number(one('page'));
  return {
    status: pick(filters.status, one('status')),
    kind: pick(filters.kind, one('kind')),
    query: pick(filters.query, one('query')) || undefined,
    from: pick(filters.from, one('from')),
    to: pick(filters.to, one('to')),
    sort: pick(sorts.sort, one('sort')) ?? DEFAULTS.sort,
    dir: pick(sorts.dir, one('dir')) ?? DEFAULTS.dir,
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : DEFAULTS.page,
  };
}

/** The search params that give back `state`; defaults are left out so a plain list has a plain address. */
export function invoiceListParams(state: InvoiceListState, options: { withPage: boolean } = { withPage: true }): URLSearchParams {
  const out = new URLSearchParams();
  for (const k of FIELDS) {
    const v = state[k];
    if (v !== undefined && v !== '' && v !== (DEFAULTS as Record<string, unknown>)[k]) out.set(k, String(v));
  }
  if (options.withPage && state.page !== DEFAULTS.page) out.set('page', String(state.page));
  return out;
}
