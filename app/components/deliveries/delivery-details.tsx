'use client';
import type { DeliveryLogEntry } from '@/server/webhooks/list-deliveries';
import { deliveryErrorText } from '../error-text';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';

/** One attempt's event, opening to its request, response, error and next attempt. */
export function DeliveryDetails({ delivery: d }: { delivery: DeliveryLogEntry }) {
  const { t, locale } = useI18n();
  const w = t.webhooks;
  return (
    <details>
      <summary>
        <code>{d.eventType}</code>
        {d.test ? <span className="badge"> {w.test}</span> : null}
      </summary>
      <dl className="facts small">
        <dt>{w.request}</dt>
        <dd>
          POST {d.url} · KSeF-Event-Id {d.eventId}
        </dd>
        <dt>{w.response}</dt>
        <dd>
          {d.statusCode ?? '—'} · {d.durationMs ?? '—'} ms
        </dd>
        {d.error ? (
          <>
            <dt>{t.common.error}</dt>
            <dd className="field-error">{deliveryErrorText(d.error, t)}</dd>
          </>
        ) : null}
        {d.responseBody ? (
          <>
            <dt>{w.response}</dt>
            <dd>
              <pre>{d.responseBody}</pre>
            </dd>
          </>
        ) : null}
        {d.nextAttemptAt ? (
          <>
            <dt>{w.cols.next}</dt>
            <dd>{formatDateTime(d.nextAttemptAt, locale)}</dd>
          </>
        ) : null}
      </dl>
    </details>
  );
}
