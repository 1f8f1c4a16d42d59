'use client';
import { storedErrorText } from '../error-text';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import type { InvoiceDetailData } from './types';

/** The warnings recorded while preparing, and those KSeF gave with its acceptance, as rows of the facts list. */
export function WarningFacts({ warnings, ksefWarnings }: Pick<InvoiceDetailData, 'warnings' | 'ksefWarnings'>) {
  const { t, locale } = useI18n();
  const d = t.detail;
  return (
    <>
      {warnings.length ? (
        <>
          <dt>{d.warnings}</dt>
          <dd>
            <ul className="warn" data-testid="warnings">
              {warnings.map((w) => (
                <li key={w.code}>
                  <code>{w.code}</code>: {storedErrorText(w, t)}
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
      {ksefWarnings.length ? (
        <>
          <dt>{d.ksefWarnings}</dt>
          <dd>
            <p className="muted">{d.ksefWarningsHint}</p>
            <ul className="warn" data-testid="ksef-warnings">
              {ksefWarnings.map((w, i) => (
                <li key={i}>
                  <time dateTime={w.at}>{formatDateTime(w.at, locale)}</time> {w.code ? <code>{w.code}</code> : null} {w.message}{' '}
                  <span className="muted mono">
                    ({w.method} {w.path})
                  </span>
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
    </>
  );
}
