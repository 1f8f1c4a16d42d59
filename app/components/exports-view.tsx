'use client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ArchiveCard } from './exports/archive-card';
import { RegisterCard } from './exports/register-card';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

/** The current Warsaw month as `YYYY-MM`. */
const thisMonth = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit' }).format(new Date());

/** The month's register and archive for the accountant. */
export function ExportsView() {
  const { t } = useI18n();
  const x = t.exports;
  const trpc = useTRPC();
  const [period, setPeriod] = useState(thisMonth);
  const { data: summary } = useQuery(trpc.exports.summary.queryOptions({ period }));
  return (
    <>
      <h1>{x.title}</h1>
      <p className="muted">{x.intro}</p>
      <div className="filters">
        <div className="field">
          <label htmlFor="export-period">{x.period}</label>
          <input id="export-period" type="month" value={period} onChange={(e) => e.target.value && setPeriod(e.target.value)} />
        </div>
      </div>
      <RegisterCard period={period} summary={summary} />
      <ArchiveCard period={period} summary={summary} />
    </>
  );
}
