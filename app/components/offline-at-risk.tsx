'use client';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

/** Overview card: offline invoices not yet in KSeF, those whose deadline is near, and those past it. */
export function OfflineAtRisk() {
  const { t, locale } = useI18n();
  const o = t.offline;
  const trpc = useTRPC();
  const { data: s } = useQuery({ ...trpc.offline.summary.queryOptions(), refetchInterval: 30_000 });
  return (
    <section className="card" aria-labelledby="offline-risk-h">
      <h2 id="offline-risk-h">{o.summary}</h2>
      <dl className="facts">
        <dt>{o.waiting}</dt>
        <dd data-testid="offline-waiting">{s ? s.waiting : '\u00a0'}</dd>
        <dt>{o.atRisk}</dt>
        <dd data-testid="offline-at-risk" className={s?.atRisk ? 'warn' : undefined}>
          {s ? s.atRisk : '\u00a0'}
        </dd>
        <dt>{o.missed}</dt>
        <dd data-testid="offline-missed" className={s?.missed ? 'field-error' : undefined}>
          {s ? s.missed : '\u00a0'}
        </dd>
        <dt>{o.nextDeadline}</dt>
        <dd>{s?.nextDeadline ? formatDateTime(s.nextDeadline, locale) : '—'}</dd>
      </dl>
    </section>
  );
}
