import type { RouterOutputs } from '../trpc';

/** What invoices.search answers; undefined while the first page loads. */
export type InvoiceSearchData = RouterOutputs['invoices']['search'] | undefined;
