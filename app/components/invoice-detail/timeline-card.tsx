'use client';
import type { ReactNode } from 'react';
import type { TimelineStep } from '@/server/documents/document-timeline';
import { deliveryErrorText, storedErrorText } from '../error-text';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import { StatusBadge } from '../status-badge';

/** Every step of the document, oldest first: statuses, the number, PDF, e-mail, store write-back, webhook attempts. */
export function TimelineCard({ steps }: { steps: TimelineStep[] }) {
  const { t } = useI18n();
  return (
    <section className="card" aria-labelledby="timeline-h">
      <h2 id="timeline-h">{t.detail.timeline}</h2>
      <ol className="timeline" aria-label={t.detail.timeline}>
        {steps.map((step, i) => (
          <li key={i} data-kind={step.kind} className={failed(step) ? 'step-failed' : undefined}>
            <StepText step={step} />
          </li>
        ))}
      </ol>
    </section>
  );
}

const failed = (step: TimelineStep) =>
  (step.kind === 'webhook' && !step.delivered) || (step.kind === 'mail' && step.outcome !== 'sent') || step.kind === 'store_gave_up';

function StepText({ step }: { step: TimelineStep }) {
  const { t, locale } = useI18n();
  const s = t.detail.steps;
  const at = (
    <time dateTime={new Date(step.at).toISOString()} className="muted">
      {formatDateTime(step.at, locale)}
    </time>
  );
  const line = (text: ReactNode, problem?: string | null, tone: 'warn' | 'field-error' = 'field-error') => (
    <>
      {at} {text}
      {problem ? <span className={tone}> {problem}</span> : null}
    </>
  );
  switch (step.kind) {
    case 'status':
      return line(
        <>
          <StatusBadge status={step.to} />
          {step.numbered ? ` · ${s.numbered} ${step.numbered}` : null}
        </>,
        step.error ? `${step.error.code}: ${storedErrorText(step.error, t)}` : null,
        step.error?.type === 'warning' ? 'warn' : 'field-error',
      );
    case 'pdf':
      return line(s.pdf);
    case 'mail':
      return line(step.outcome === 'sent' ? s.mailSent : step.outcome === 'retrying' ? s.mailRetrying : s.mailFailed, step.error);
    case 'store_note':
      return line(s.storeNote);
    case 'store_meta':
      return line(s.storeMeta);
    case 'store_gave_up':
      return line(s.storeGaveUp, step.error);
    case 'webhook': {
      const answer = step.statusCode ? `HTTP ${step.statusCode}` : step.error ? deliveryErrorText(step.error, t) : '—';
      const text = (step.delivered ? s.webhookDelivered : s.webhookFailed).replace('{event}', step.eventType).replace('{url}', step.url);
      return line(
        <>
          {text} <span className="muted">({[answer, s.attempt.replace('{n}', String(step.attempt))].join(', ')})</span>
        </>,
      );
    }
  }
}
