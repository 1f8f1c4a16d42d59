import { InvoicesTable } from '../../components/invoices-table';

export default function InvoicesPage() {
  return <InvoicesTable />;
}
