'use client';
import Link from 'next/link';
import type { SerializedDocument } from '@/server/documents/serialize-document';
import { CorrectionForm } from '../correction-form';
import { formatDecimal } from '../format';
import { useI18n } from '../i18n';
import { useMay } from '../role';
import { StatusBadge } from '../status-badge';

type SerializedInvoice = Extract<SerializedDocument, { corrections: unknown }>;

/** An invoice's corrections, and the form for another while the invoice can still be corrected. */
export function CorrectionsCard({ invoice }: { invoice: SerializedInvoice }) {
  const { t, locale } = useI18n();
  const d = t.detail;
  const mayCorrect = useMay('manage');
  return (
    <section className="card" aria-labelledby="corrections-h">
      <h2 id="corrections-h">{d.corrections}</h2>
      {invoice.corrections.length === 0 ? <p className="muted">{d.noCorrections}</p> : null}
      <ul aria-label={d.corrections}>
        {invoice.corrections.map((c) => (
          <li key={c.id}>
            <Link href={`/dashboard/invoices/${c.id}`}>{c.number ?? c.id}</Link> · {c.refund.external_id} · {formatDecimal(c.total_gross, c.currency, locale)}{' '}
            <StatusBadge status={c.status} />
          </li>
        ))}
      </ul>
      {mayCorrect && invoice.status !== 'rejected' && invoice.status !== 'skipped' ? <CorrectionForm invoiceId={invoice.id} /> : null}
    </section>
  );
}
