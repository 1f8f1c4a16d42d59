import type { KsefClient } from './client';

/** The part of KSeF's InvoiceMetadata the relay reads (OpenAPI `InvoiceMetadata`). */
export type InvoiceMetadata = { ksefNumber: string; invoiceNumber: string; invoiceHash: string; acquisitionDate: string };

type MetadataPage = { hasMore: boolean; isTruncated: boolean; invoices: InvoiceMetadata[] };

const PAGE_SIZE = 250;
/** KSeF refuses a date range longer than 3 months (OpenAPI `InvoiceQueryFilters.dateRange`). */
const WINDOW_MS = 90 * 86_400_000;

/**
 * Every invoice of the authenticated seller (Subject1) with this invoice number that KSeF took between `from` and now
 * (POST /invoices/query/metadata, by invoicing date), walking the range in 3-month windows and the pages of each.
 */
export async function findInvoicesByNumber(
  client: KsefClient,
  accessToken: string,
  invoiceNumber: string,
  from: Date,
  now = new Date(),
): Promise<InvoiceMetadata[]> {
  const out: InvoiceMetadata[] = [];
  for (let start = from.getTime(); start < now.getTime(); start += WINDOW_MS) {
    const dateRange = { dateType: 'Invoicing', from: new Date(start).toISOString(), to: new Date(Math.min(start + WINDOW_MS, now.getTime())).toISOString() };
    for (let pageOffset = 0; ; pageOffset++) {
      const page = await client.http.json<MetadataPage>({
        method: 'POST',
        path: '/invoices/query/metadata',
        bearer: accessToken,
        query: { pageOffset, pageSize: PAGE_SIZE, sortOrder: 'Asc' },
        json: { subjectType: 'Subject1', dateRange, invoiceNumber },
      });
      out.push(...page.invoices);
      if (!page.hasMore) break;
    }
  }
  return out;
}
