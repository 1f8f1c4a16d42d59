import { InvoicesTable } from '@/app/components/invoices-table';
import { DOCUMENT_STATUSES } from '@/server/documents/statuses';

export default async function InvoicesPage({ searchParams }: { searchParams: Promise<{ status?: string | string[] }> }) {
  const { status } = await searchParams;
  const initialStatus = DOCUMENT_STATUSES.find((s) => s === status);
  // a new filter from a link mounts the table afresh with it
  return <InvoicesTable key={initialStatus ?? ''} initialStatus={initialStatus} />;
}
