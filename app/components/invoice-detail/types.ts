import type { RouterOutputs } from '../trpc';

/** What invoices.detail answers: the server page's first paint and the browser's refetches share it. */
export type InvoiceDetailData = RouterOutputs['invoices']['detail'];
