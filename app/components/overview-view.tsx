'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { AttentionList } from './attention-list';
import { DayChart } from './day-chart';
import { checkErrorText } from './error-text';
import { OfflineAtRisk } from './offline-at-risk';
import { useMay } from './role';
import { useI18n } from './i18n';
import { StatusBadge } from './status-badge';
import { DOCUMENT_STATUSES } from '@/server/documents/statuses';
import { useTRPC } from './trpc';

const STEP_LINKS = {
  seller: '/dashboard/seller',
  ksef: '/dashboard/ksef',
  api_key: '/dashboard/api-keys',
  first_invoice: '/dashboard/invoices',
  webhook: '/dashboard/webhooks',
} as const;

export function OverviewView() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const mayManage = useMay('manage');
  const { data } = useQuery({ ...trpc.account.overview.queryOptions(), refetchInterval: 5_000 });
  const o = t.overview;
  return (
    <>
      <h1>{o.title}</h1>
      <AttentionList attention={data?.attention} />
      <div className="grid-2">
        {/* the set-up steps are the owner's pages */}
        {mayManage ? (
          <section className="card" aria-labelledby="checklist-h">
            <h2 id="checklist-h">{o.checklist}</h2>
            <ol className="checklist" aria-label={o.checklist}>
              {(data?.checklist ?? Object.keys(STEP_LINKS).map((step) => ({ step: step as keyof typeof STEP_LINKS, done: false }))).map((s) => (
                <li key={s.step} data-done={data ? s.done : undefined}>
                  <span className="check" aria-hidden="true">
                    {data ? (s.done ? '✓' : '○') : '·'}
                  </span>
                  <Link href={STEP_LINKS[s.step]}>{o.steps[s.step]}</Link>
                  <span className="sr-only">: </span>
                  <span className={s.done ? 'ok' : 'muted'}>{data ? (s.done ? o.done : o.todo) : '\u00a0'}</span>
                </li>
              ))}
            </ol>
          </section>
        ) : null}
        <section className="card" aria-labelledby="sending-h">
          <h2 id="sending-h">{o.sending}</h2>
          <dl className="facts">
            <dt>{o.environment}</dt>
            <dd>{data ? t.ksef.env[data.sending.environment] : '\u00a0'}</dd>
            <dt>{o.connection}</dt>
            <dd>
              {data
                ? data.sending.connected
                  ? o.connected
                  : `${o.notConnected}${data.sending.checkError ? ` (${checkErrorText(data.sending.checkError, t)})` : ''}`
                : '\u00a0'}
            </dd>
            <dt>{o.queueDepth}</dt>
            <dd data-testid="queue-depth">
              {data
                ? `${data.sending.queue.total} (${t.status.pending} ${data.sending.queue.pending}, ${t.status.queued} ${data.sending.queue.queued}, ${t.status.sending} ${data.sending.queue.sending})`
                : '\u00a0'}
            </dd>
            <dt>{o.sendingMode}</dt>
            <dd data-testid="sending-method">{data ? (data.sending.method === 'batch' ? o.batch : o.interactive) : '\u00a0'}</dd>
            <dt>{o.requests}</dt>
            <dd>
              {data && data.sending.windows.length === 0 ? <span className="muted">{o.noRequests}</span> : null}
              {data?.sending.windows.map((w) => (
                <div key={w.group}>
                  <code>{w.group}</code>: {limitText(w.used.second, w.perSecond)}/s · {limitText(w.used.minute, w.perMinute)}/min ·{' '}
                  {limitText(w.used.hour, w.perHour)}/h
                </div>
              ))}
            </dd>
            <dt>{o.retryAfter}</dt>
            <dd>{data ? (data.sending.blockedUntil ? new Date(data.sending.blockedUntil).toLocaleTimeString(t.lang) : o.none) : '\u00a0'}</dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="plan-h">
          <h2 id="plan-h">{o.plan}</h2>
          <dl className="facts">
            <dt>{o.plan}</dt>
            <dd>{data ? (t.plan[data.plan.name] ?? data.plan.name) : '\u00a0'}</dd>
            <dt>{o.issuedThisMonth}</dt>
            <dd>{data ? `${data.plan.issuedThisMonth} / ${data.plan.monthlyLimit ?? o.unlimited}` : '\u00a0'}</dd>
          </dl>
          {data?.plan.monthlyLimit ? <progress max={data.plan.monthlyLimit} value={data.plan.issuedThisMonth} aria-label={o.issuedThisMonth} /> : null}
        </section>
        <OfflineAtRisk />
        <section className="card" aria-labelledby="counts-h">
          <h2 id="counts-h">{o.counts}</h2>
          <ul className="counts">
            {DOCUMENT_STATUSES.map((s) => (
              <li key={s}>
                <StatusBadge status={s} /> <strong data-testid={`count-${s}`}>{data ? data.counts[s] : '\u00a0'}</strong>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <section className="card" aria-labelledby="chart-h">
        <h2 id="chart-h">{o.chart}</h2>
        <DayChart days={data?.perDay ?? []} description={o.chartDesc} />
      </section>
    </>
  );
}

/** "12 of 30" for a window with a limit, just the count where KSeF sets none. */
const limitText = (used: number, limit: number | null) => (limit === null ? String(used) : `${used}/${limit}`);
