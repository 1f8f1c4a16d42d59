import { InvoicesTable } from '@/app/components/invoices-table';
import { readInvoiceListParams } from '@/app/components/invoice-list-params';

/** The filters live in the address (`?status=error` from the overview's attention list, back/forward, reload). */
export default async function InvoicesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <InvoicesTable state={readInvoiceListParams(await searchParams)} />;
}
