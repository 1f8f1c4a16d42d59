'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { CorrectionForm } from './correction-form';
import { DeliveriesTable } from './deliveries-table';
import { readError, storedErrorText } from './error-text';
import { formatDateTime, formatDecimal, formatMoney } from './format';
import { useI18n } from './i18n';
import { OfflineFacts } from './offline-facts';
import { useMay } from './role';
import { StatusBadge } from './status-badge';
import { isInFlight } from '@/server/documents/statuses';
import { useTRPC } from './trpc';

export function InvoiceDetail({ id }: { id: string }) {
  const { t, locale } = useI18n();
  const d = t.detail;
  const trpc = useTRPC();
  const mayCorrect = useMay('manage');
  const { data, error } = useQuery({
    ...trpc.invoices.detail.queryOptions({ id }),
    // until the document is final and its PDF is stored, keep following it
    refetchInterval: (q) => {
      const doc = q.state.data;
      return doc && (isInFlight(doc.document.status) || (doc.document.status === 'accepted' && !doc.hasPdf)) ? 2_000 : false;
    },
  });
  if (error) return <p className="field-error">{error.message}</p>;
  if (!data) return <p className="muted page-loading">{t.common.loading}</p>;
  const doc = data.document;
  const money = (g: number | null) => formatMoney(g, doc.currency, locale);
  const files = `/dashboard/files/${doc.id}`;
  return (
    <>
      <p>
        <Link href="/dashboard/invoices">← {d.back}</Link>
      </p>
      <h1>
        {t.kind[data.kind]} {doc.number ?? doc.id} <StatusBadge status={doc.status} />
      </h1>
      <div className="grid-2">
        <section className="card" aria-labelledby="facts-h">
          <h2 id="facts-h">{t.kind[data.kind]}</h2>
          <dl className="facts">
            <dt>ID</dt>
            <dd className="mono">{doc.id}</dd>
            <dt>{d.number}</dt>
            <dd>{doc.number ?? '—'}</dd>
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
            <dd>{money(data.totalGrossGrosze)}</dd>
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
            {data.warnings.length ? (
              <>
                <dt>{d.warnings}</dt>
                <dd>
                  <ul className="warn" data-testid="warnings">
                    {data.warnings.map((w) => (
                      <li key={w.code}>
                        <code>{w.code}</code>: {w.message}
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            ) : null}
            {data.ksefWarnings.length ? (
              <>
                <dt>{d.ksefWarnings}</dt>
                <dd>
                  <p className="muted">{d.ksefWarningsHint}</p>
                  <ul className="warn" data-testid="ksef-warnings">
                    {data.ksefWarnings.map((w, i) => (
                      <li key={i}>
                        <time dateTime={w.at}>{formatDateTime(w.at, locale)}</time> {w.code ? <code>{w.code}</code> : null} {w.message}{' '}
                        <span className="muted mono">
                          ({w.method} {w.path})
                        </span>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            ) : null}
            <dt>{d.mail}</dt>
            <dd>{data.mailStatus ? t.mail[data.mailStatus] : '—'}</dd>
            <dt>{d.lastError}</dt>
            <dd className={doc.last_error ? 'field-error' : undefined}>
              {doc.last_error ? `${doc.last_error.code}: ${storedErrorText(doc.last_error, t)}` : '—'}
            </dd>
            <OfflineFacts doc={doc} />
          </dl>
          {data.retryable && mayCorrect ? <RetryButton id={doc.id} /> : null}
        </section>
        <section className="card" aria-labelledby="timeline-h">
          <h2 id="timeline-h">{d.timeline}</h2>
          <ol className="timeline" aria-label={d.timeline}>
            {data.timeline.map((step, i) => (
              <li key={i} data-status={step.to}>
                <StatusBadge status={step.to} /> <time dateTime={new Date(step.at).toISOString()}>{formatDateTime(step.at, locale)}</time>
                {step.error ? (
                  <span className={step.error.type === 'warning' ? 'warn' : 'field-error'}>
                    {' '}
                    {step.error.code}: {storedErrorText(step.error, t)}
                  </span>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      </div>
      {'order' in data && data.order ? (
        <section className="card" aria-labelledby="buyer-h">
          <h2 id="buyer-h">{d.buyer}</h2>
          <p>
            {data.order.buyer.name}, NIP {data.order.buyer.nip}
            <br />
            {data.order.buyer.address1}
            {data.order.buyer.address2 ? `, ${data.order.buyer.address2}` : ''} ({data.order.buyer.countryCode})
            {data.order.buyer.email ? (
              <>
                <br />
                {data.order.buyer.email}
              </>
            ) : null}
          </p>
          <p className="muted">
            {d.paidAt}: {formatDateTime(data.order.paidAt, locale)} · {d.payment}: {t.payment[data.order.paymentMethod]}
          </p>
          <div className="table-wrap">
            <table aria-label={d.lines}>
              <thead>
                <tr>
                  <th scope="col">{d.lineName}</th>
                  <th scope="col">{d.sku}</th>
                  <th scope="col" className="num">
                    {d.qty}
                  </th>
                  <th scope="col" className="num">
                    {d.unitPrice}
                  </th>
                  <th scope="col" className="num">
                    {d.discount}
                  </th>
                  <th scope="col" className="num">
                    {d.gross}
                  </th>
                  <th scope="col" className="num">
                    {d.vat}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.order.lines.map((l, i) => (
                  <tr key={i}>
                    <td>{l.name}</td>
                    <td>{l.sku ?? '—'}</td>
                    <td className="num">{l.quantity}</td>
                    <td className="num">{money(l.unitPriceGrosze)}</td>
                    <td className="num">{money(l.discountGrosze)}</td>
                    <td className="num">{money(l.grossGrosze)}</td>
                    <td className="num">{l.vatRate}%</td>
                  </tr>
                ))}
                {data.order.shipping.map((s, i) => (
                  <tr key={`s${i}`}>
                    <td>
                      {d.shipping}: {s.name}
                    </td>
                    <td>—</td>
                    <td className="num">1</td>
                    <td className="num">{money(s.grossGrosze)}</td>
                    <td className="num">—</td>
                    <td className="num">{money(s.grossGrosze)}</td>
                    <td className="num">{s.vatRate}%</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      {'refund' in data && data.refund ? (
        <section className="card" aria-labelledby="refund-h">
          <h2 id="refund-h">{d.refund}</h2>
          {data.refund.reason ? (
            <p>
              {d.reason}: {data.refund.reason}
            </p>
          ) : null}
          <ul>
            {data.refund.lines.map((l, i) => (
              <li key={i}>
                {l.quantity} × {l.name} ({money(l.unitPriceGrosze)}, {l.vatRate}%)
              </li>
            ))}
            {data.refund.shippingGrosze ? (
              <li>
                {d.shipping}: {money(data.refund.shippingGrosze)}
              </li>
            ) : null}
          </ul>
        </section>
      ) : null}
      <section className="card" aria-labelledby="files-h">
        <h2 id="files-h">{d.files}</h2>
        <ul className="inline-list">
          <li>
            {data.hasPdf ? (
              <a href={`${files}/pdf`} download>
                {d.pdf}
              </a>
            ) : (
              <span className="muted">{d.pdf}</span>
            )}
          </li>
          <li>
            {data.hasXml ? (
              <a href={`${files}/xml`} download>
                {d.xml}
              </a>
            ) : (
              <span className="muted">{d.xml}</span>
            )}
          </li>
          <li>
            {data.hasUpo ? (
              <a href={`${files}/upo`} download>
                {d.upo}
              </a>
            ) : (
              <span className="muted">{d.upo}</span>
            )}
          </li>
        </ul>
        {data.hasPdf ? <iframe className="pdf-preview" title={d.preview} src={`${files}/pdf?inline=1`} /> : <p className="muted">{d.pdfPending}</p>}
      </section>
      {'corrections' in doc ? (
        <section className="card" aria-labelledby="corrections-h">
          <h2 id="corrections-h">{d.corrections}</h2>
          {doc.corrections.length === 0 ? <p className="muted">{d.noCorrections}</p> : null}
          <ul aria-label={d.corrections}>
            {doc.corrections.map((c) => (
              <li key={c.id}>
                <Link href={`/dashboard/invoices/${c.id}`}>{c.number ?? c.id}</Link> · {c.refund.external_id} ·{' '}
                {formatDecimal(c.total_gross, c.currency, locale)} <StatusBadge status={c.status} />
              </li>
            ))}
          </ul>
          {mayCorrect && doc.status !== 'rejected' && doc.status !== 'skipped' ? <CorrectionForm invoiceId={doc.id} /> : null}
        </section>
      ) : null}
      <section className="card" aria-labelledby="events-h">
        <h2 id="events-h">{d.events}</h2>
        {data.events.length === 0 ? <p className="muted">{d.noEvents}</p> : null}
        <ul className="events">
          {data.events.map((e) => (
            <li key={e.id}>
              <details>
                <summary>
                  <code>{e.type}</code> · {e.id} · {formatDateTime(e.createdAt, locale)}
                </summary>
                <pre>{JSON.stringify(e.payload, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ul>
      </section>
      {data.deliveries ? (
        <section className="card" aria-labelledby="deliveries-h">
          <h2 id="deliveries-h">{d.deliveries}</h2>
          <DeliveriesTable deliveries={data.deliveries} showEndpoint />
        </section>
      ) : null}
    </>
  );
}

/** Sends a document in error (or skipped for a fixable cause) through the pipeline again; the page then follows it. */
function RetryButton({ id }: { id: string }) {
  const { t } = useI18n();
  const d = t.detail;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const retry = useMutation(
    trpc.invoices.retry.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.invoices.pathKey() }),
    }),
  );
  const failure = readError(retry.error, t);
  return (
    <div>
      <p className="muted">{d.retryHelp}</p>
      <button type="button" data-testid="retry" disabled={retry.isPending} onClick={() => retry.mutate({ id })}>
        {retry.isPending ? d.retrying : d.retry}
      </button>
      {failure ? <p className="field-error">{failure.message}</p> : null}
    </div>
  );
}
