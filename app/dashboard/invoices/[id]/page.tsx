import { cookies } from 'next/headers';
import { InvoiceDetail } from '@/app/components/invoice-detail';
import { serverCaller } from '@/server/trpc/server-caller';

/**
 * Reads the document through the same procedure as the browser (the member's account and mode, invariant 5), so
 * the first HTML holds its facts; an id the scope does not have is left to the client's query to report.
 */
export default async function InvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const caller = await serverCaller((await cookies()).toString());
  const initial = caller ? await caller.invoices.detail({ id }).catch(() => null) : null;
  return <InvoiceDetail id={id} initial={initial} />;
}
