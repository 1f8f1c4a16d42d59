'use client';
import type { Locale } from '@/app/i18n/locale';
import type { Dictionary } from '@/app/i18n/pl';
import { fillTemplate } from '@/server/template';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import type { OfflineStatus } from './types';

type CertificateState = { state: 'missing' } | { state: 'expired' | 'not_yet_valid' | 'valid' | 'expiring'; serial: string; validFrom: Date; validTo: Date };

/** The certificate's state in the reader's language (the service's `reason` is English). */
function certificateText(cert: CertificateState, t: Dictionary, locale: Locale): string {
  const o = t.offline;
  if (cert.state === 'missing') return o.certificateMissing;
  if (cert.state === 'expired') return fillTemplate(o.certificateExpired, { serial: cert.serial, date: formatDateTime(cert.validTo, locale) });
  if (cert.state === 'not_yet_valid') return fillTemplate(o.certificateNotYetValid, { serial: cert.serial, date: formatDateTime(cert.validFrom, locale) });
  return `${o.serial} ${cert.serial}`;
}

/** The Offline certificate's state, validity and source. */
export function OfflineCertificateCard({ data }: { data: OfflineStatus }) {
  const { t, locale } = useI18n();
  const o = t.offline;
  const cert = data?.certificate;
  return (
    <section className="card" aria-labelledby="offline-h">
      <h2 id="offline-h">{o.title}</h2>
      <p className="muted">{o.intro}</p>
      <dl className="facts">
        <dt>{o.certificate}</dt>
        <dd data-testid="offline-certificate" className={cert && 'reason' in cert ? 'warn' : 'ok'}>
          {cert ? certificateText(cert, t, locale) : '\u00a0'}
        </dd>
        {cert && 'validTo' in cert ? (
          <>
            <dt>{o.validTo}</dt>
            <dd className={cert.state === 'expiring' ? 'warn' : undefined}>
              {formatDateTime(cert.validTo, locale)}
              {cert.state === 'expiring' ? ` – ${o.certificateExpiring}` : ''}
            </dd>
          </>
        ) : null}
        {cert?.source ? (
          <>
            <dt>{o.source}</dt>
            <dd>{o.sources[cert.source]}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
