'use client';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import type { StoreStatus } from './types';

/** The store's webhooks as last checked. */
export function StoreWebhooksCard({ store: data }: { store: StoreStatus }) {
  const { t, locale } = useI18n();
  const s = t.store;
  const statusLabel = (status: string) => (status === 'active' ? s.active : status === 'disabled' ? s.disabled : status === 'paused' ? s.paused : status);
  return (
    <section className="card table-wrap" aria-labelledby="store-webhooks-h">
      <h2 id="store-webhooks-h">{s.webhooks}</h2>
      <table aria-label={s.webhooks}>
        <thead>
          <tr>
            <th>{s.topic}</th>
            <th>{s.webhookId}</th>
            <th>{s.webhookStatus}</th>
            <th>{s.checked}</th>
          </tr>
        </thead>
        <tbody>
          {data.webhooks.map((w) => (
            <tr key={w.id}>
              <td>{w.topic}</td>
              <td>{w.id}</td>
              <td className={w.status === 'active' ? 'ok' : 'warn'}>
                {statusLabel(w.status)}
                {w.note ? <span className="muted"> ({w.note})</span> : null}
              </td>
              <td>{w.checkedAt ? formatDateTime(w.checkedAt, locale) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
