'use client';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import type { StoreStatus } from './types';

/** Orders and refunds the store sent that were not invoiced, counted and listed by reason. */
export function StoreSkippedCard({ store: data }: { store: StoreStatus }) {
  const { t, locale } = useI18n();
  const s = t.store;
  return (
    <section className="card table-wrap" aria-labelledby="store-skipped-h">
      <h2 id="store-skipped-h">{s.skippedTitle}</h2>
      {data.skippedByReason.length === 0 ? (
        <p className="muted">{s.skippedEmpty}</p>
      ) : (
        <>
          <ul data-testid="store-skipped-counts">
            {data.skippedByReason.map((r) => (
              <li key={r.reason}>
                {s.reasons[r.reason] ?? r.reason}: {r.count}
              </li>
            ))}
          </ul>
          <table aria-label={s.skippedTitle}>
            <thead>
              <tr>
                <th>{s.order}</th>
                <th>{s.reason}</th>
                <th>{s.message}</th>
                <th>{s.when}</th>
              </tr>
            </thead>
            <tbody>
              {data.skipped.map((r) => (
                <tr key={`${r.kind}-${r.id}`}>
                  <td>
                    #{r.orderId}
                    {r.kind === 'refund' ? ` / ${r.id}` : ''}
                  </td>
                  <td>{s.reasons[r.reason ?? ''] ?? r.reason}</td>
                  {/* the store's own wording is English: shown to English readers, the reason column says it in Polish */}
                  <td className="muted">{t.lang === 'en' ? r.message : ''}</td>
                  <td>{formatDateTime(r.at, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
