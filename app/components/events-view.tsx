'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { EVENT_TYPES, type EventType } from '@/server/facts/event-types';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

type EventBody = { id: string; type: string; created: number; data: { object: { id: string; number: string | null } } };

export function EventsView() {
  const { t, locale } = useI18n();
  const e = t.events;
  const trpc = useTRPC();
  const [type, setType] = useState<EventType | ''>('');
  const [cursor, setCursor] = useState<string[]>([]);
  const { data } = useQuery(trpc.events.list.queryOptions({ type: type || undefined, startingAfter: cursor.at(-1) }));
  const events = (data?.data ?? []) as EventBody[];
  return (
    <>
      <h1>{e.title}</h1>
      <div className="filters">
        <div className="field">
          <label htmlFor="event-type">{e.type}</label>
          <select
            id="event-type"
            value={type}
            onChange={(ev) => {
              setType(ev.target.value as EventType | '');
              setCursor([]);
            }}
          >
            <option value="">{e.all}</option>
            {EVENT_TYPES.map((ty) => (
              <option key={ty} value={ty}>
                {ty}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ul className="events card" aria-label={e.title}>
        {events.map((ev) => (
          <li key={ev.id}>
            <details>
              <summary>
                <code>{ev.type}</code> · <Link href={`/dashboard/invoices/${ev.data.object.id}`}>{ev.data.object.number ?? ev.data.object.id}</Link> ·{' '}
                {formatDateTime(ev.created, locale)}
              </summary>
              <p className="muted">{e.payload}</p>
              <pre>{JSON.stringify(ev, null, 2)}</pre>
            </details>
          </li>
        ))}
        {data && events.length === 0 ? <li>{e.empty}</li> : null}
        {!data ? <li>{t.common.loading}</li> : null}
      </ul>
      <nav className="pager" aria-label={t.common.page}>
        <button type="button" onClick={() => setCursor((c) => c.slice(0, -1))} disabled={cursor.length === 0}>
          {t.common.previous}
        </button>
        <button type="button" onClick={() => setCursor((c) => [...c, events.at(-1)!.id])} disabled={!data?.hasMore}>
          {e.more}
        </button>
      </nav>
    </>
  );
}
