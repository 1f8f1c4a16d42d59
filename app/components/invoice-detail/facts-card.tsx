'use client';
import Link from 'next/link';
import { formatDateTime, formatMoney } from '../format';
import { storedErrorText } from '../error-text';
import { useI18n } from '../i18n';
import { OfflineFacts } from '../offline-facts';
import { useMay } from '../role';
import { StatusBadge } from '../status-badge';
import { RetryButton } from './retry-button';
import type { InvoiceDetailData } from './types';
import { WarningFacts } from './warning-facts';

/** The document's own facts: numbers, status, amounts, order, rate, offline state, warnings, mail and last error. */
export function FactsCard({ data }: { data: InvoiceDetailData }) {
  const { t, locale } = useI18n();
  const d = t.detail;
  const mayRetry = useMay('manage');
  const doc = data.document;
  return (
    <section className="card" aria-labelledby="facts-h">
      <h2 id="facts-h">{t.kind[data.kind]}</h2>
      <dl className="facts">
        <dt>ID</dt>
        <dd className="mono">{doc.id}</dd>
        <dt>{d.number}</dt>
        <dd data-testid="document-number">{doc.number ?? '—'}</dd>
        <dt>{d.ksefNumber}</dt>
        <dd className="mono" data-testid="ksef-number">
          {doc.ksef_number ?? '—'}
        </dd>
        <dt>{d.status}</dt>
        <dd>
          <StatusBadge status={doc.status} />
        </dd>
        <dt>{d.environment}</dt>
        <dd>{t.ksef.env[doc.ksef_environment]}</dd>
        <dt>{d.issueDate}</dt>
        <dd>{doc.issue_date ?? '—'}</dd>
        <dt>{d.currency}</dt>
        <dd>{doc.currency ?? '—'}</dd>
        <dt>{d.totalGross}</dt>
        <dd>{formatMoney(data.totalGrossGrosze, doc.currency, locale)}</dd>
        <dt>{d.order}</dt>
        <dd>
          {doc.order.external_id}
          {doc.order.number ? ` (${doc.order.number})` : ''}
        </dd>
        {'refund' in doc ? (
          <>
            <dt>{d.invoice}</dt>
            <dd>
              <Link href={`/dashboard/invoices/${doc.invoice}`}>{doc.invoice}</Link>
            </dd>
            <dt>{d.refund}</dt>
            <dd>{doc.refund.external_id}</dd>
          </>
        ) : null}
        {data.exchangeRate ? (
          <>
            <dt>{d.rate}</dt>
            <dd>
              {data.exchangeRate.rate} ({data.exchangeRate.table}, {data.exchangeRate.date})
            </dd>
          </>
        ) : null}
        {data.offline ? (
          <>
            <dt>{d.offline}</dt>
            <dd className="warn" data-testid="offline">
              {d.offlineDeadline} {data.offline.deadline ? formatDateTime(data.offline.deadline, locale) : '—'}
            </dd>
          </>
        ) : null}
        <WarningFacts warnings={data.warnings} ksefWarnings={data.ksefWarnings} />
        <dt>{d.mail}</dt>
        <dd>{data.mailStatus ? t.mail[data.mailStatus] : '—'}</dd>
        <dt>{d.lastError}</dt>
        <dd className={doc.last_error ? 'field-error' : undefined}>{doc.last_error ? `${doc.last_error.code}: ${storedErrorText(doc.last_error, t)}` : '—'}</dd>
        <OfflineFacts doc={doc} />
      </dl>
      {data.retryable && mayRetry ? <RetryButton id={doc.id} /> : null}
    </section>
  );
}
