'use client';
import { useMutation } from '@tanstack/react-query';
import type { Dictionary } from '@/app/i18n/pl';
import { fillTemplate, type TemplateParams } from '@/server/template';
import { readError } from '../error-text';
import { useI18n } from '../i18n';
import { useTRPC } from '../trpc';
import { useRefreshOffline, type OfflineStatus } from './types';

/** A kept enrolment failure by its cause; one stored before causes were kept, in English only to an English reader. */
function enrolmentErrorText(e: { detail: string | null; params: TemplateParams; text: string }, t: Dictionary): string {
  const template = e.detail ? t.errorDetails[e.detail] : undefined;
  if (template) return fillTemplate(template, e.params);
  return t.lang === 'en' ? e.text : t.offline.enrolmentFailed;
}

/** Enrols an Offline certificate through KSeF, or says why it cannot. */
export function EnrolCard({ data }: { data: OfflineStatus }) {
  const { t } = useI18n();
  const o = t.offline;
  const trpc = useTRPC();
  const enrol = useMutation(trpc.offline.enrol.mutationOptions(useRefreshOffline()));
  return (
    <section className="card" aria-labelledby="offline-enrol-h">
      <h2 id="offline-enrol-h">{o.enrolTitle}</h2>
      <p>{o.enrolIntro}</p>
      {data?.cannotEnrol ? (
        <p className="warn">
          {t.errorDetails.enrol_needs_certificate}
          {data.cannotEnrol === 'token_emulator' ? ` ${o.emulatorCertificateHint}` : ''}
        </p>
      ) : null}
      {data?.enrolmentError ? <p className="field-error">{enrolmentErrorText(data.enrolmentError, t)}</p> : null}
      <button type="button" className="primary" onClick={() => enrol.mutate()} disabled={enrol.isPending || !data?.canEnrol}>
        {enrol.isPending ? o.enrolling : o.enrol}
      </button>
      <span role="status" aria-live="polite" className="field-error">
        {readError(enrol.error, t)?.message ?? (enrol.data?.state === 'pending' || data?.enrolmentPending ? o.enrolPending : '')}
      </span>
    </section>
  );
}
