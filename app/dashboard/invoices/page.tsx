import { InvoicesTable } from '@/app/components/invoices-table';

export default function InvoicesPage() {
  return <InvoicesTable />;
}
