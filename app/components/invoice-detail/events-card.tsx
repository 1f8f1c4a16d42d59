'use client';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import type { InvoiceDetailData } from './types';

/** The events recorded for the document, each with the JSON its webhooks carry. */
export function EventsCard({ events }: { events: InvoiceDetailData['events'] }) {
  const { t, locale } = useI18n();
  const d = t.detail;
  return (
    <section className="card" aria-labelledby="events-h">
      <h2 id="events-h">{d.events}</h2>
      {events.length === 0 ? <p className="muted">{d.noEvents}</p> : null}
      <ul className="events">
        {events.map((e) => (
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
  );
}
