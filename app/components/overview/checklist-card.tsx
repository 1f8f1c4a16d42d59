'use client';
import Link from 'next/link';
import { useI18n } from '../i18n';
import type { OverviewData } from './types';

const STEP_LINKS = {
  seller: '/dashboard/seller',
  ksef: '/dashboard/ksef',
  api_key: '/dashboard/api-keys',
  first_invoice: '/dashboard/invoices',
  webhook: '/dashboard/webhooks',
} as const;

type Step = keyof typeof STEP_LINKS;

/** The owner's set-up steps, each ticked by what the service has seen happen (server/accounts/setup-checklist.ts). */
export function ChecklistCard({ data }: { data: OverviewData }) {
  const { t } = useI18n();
  const o = t.overview;
  const steps = data?.checklist ?? (Object.keys(STEP_LINKS) as Step[]).map((step) => ({ step, done: false }));
  return (
    <section className="card" aria-labelledby="checklist-h">
      <h2 id="checklist-h">{o.checklist}</h2>
      <ol className="checklist" aria-label={o.checklist}>
        {steps.map((s) => (
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
  );
}
