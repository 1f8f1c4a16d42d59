'use client';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import type { StoreStatus } from './types';

/** Documents whose number could not be written back to the store's order; nothing while there are none. */
export function StoreWritebackCard({ store: data }: { store: StoreStatus }) {
  const { t, locale } = useI18n();
  const s = t.store;
  if (!data.writebackGiveUps.length) return null;
  return (
    <section className="card table-wrap" aria-labelledby="store-writeback-h">
      <h2 id="store-writeback-h">{s.writebackTitle}</h2>
      <p className="warn">{s.writebackIntro}</p>
      <table aria-label={s.writebackTitle} data-testid="store-writeback-give-ups">
        <thead>
          <tr>
            <th>{s.order}</th>
            <th>{s.document}</th>
            <th>{s.reason}</th>
            <th>{s.message}</th>
            <th>{s.when}</th>
          </tr>
        </thead>
        <tbody>
          {data.writebackGiveUps.map((g) => (
            <tr key={g.documentId}>
              <td>#{g.orderId}</td>
              <td>{g.number ?? g.documentId}</td>
              <td>{s.writebackReasons[g.reason ?? ''] ?? g.reason}</td>
              <td className="muted">{g.message}</td>
              <td>{g.at ? formatDateTime(g.at, locale) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
