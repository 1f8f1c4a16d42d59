'use client';
import { useQuery } from '@tanstack/react-query';
import { DOCUMENT_STATUSES } from '@/server/facts/document-statuses';
import { AttentionList } from './attention-list';
import { DayChart } from './day-chart';
import { OfflineAtRisk } from './offline-at-risk';
import { ChecklistCard } from './overview/checklist-card';
import { MoneyCard } from './overview/money-card';
import { SendingCard } from './overview/sending-card';
import { useMay } from './role';
import { useI18n } from './i18n';
import { StatusBadge } from './status-badge';
import { useTRPC } from './trpc';

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
        {mayManage ? <ChecklistCard data={data} /> : null}
        <MoneyCard data={data} />
        <SendingCard data={data} />
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
        <DayChart days={data?.perDay} description={o.chartDesc} />
      </section>
    </>
  );
}
