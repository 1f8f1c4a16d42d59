'use client';
import { checkErrorText, readError } from '../error-text';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import type { KsefActions, KsefStatus } from './use-ksef-actions';

/** The connection's environment, credential, validity and state; the test button and the last action's outcome. */
export function KsefStateCard({ data, actions: { test, busy, last, lastResult } }: { data: KsefStatus; actions: KsefActions }) {
  const { t, locale } = useI18n();
  const k = t.ksef;
  return (
    <section className="card" aria-labelledby="ksef-state-h">
      <h2 id="ksef-state-h">{k.state}</h2>
      <dl className="facts">
        <dt>{k.environment}</dt>
        <dd>{data ? k.env[data.environment] : '\u00a0'}</dd>
        <dt>{k.credential}</dt>
        <dd>{data ? (data.credentialKind ? k.credentialKind[data.credentialKind] : t.common.none) : '\u00a0'}</dd>
        {data?.credentialExpiry ? (
          <>
            <dt>{k.validTo}</dt>
            <dd data-testid="ksef-valid-to" className={data.credentialExpiry === 'expiring' || data.credentialExpiry === 'expired' ? 'warn' : undefined}>
              {data.credentialValidTo ? formatDateTime(data.credentialValidTo, locale) : k.noExpiryKnown}
              {data.credentialExpiry === 'expiring' ? ` (${k.expiringSoon})` : data.credentialExpiry === 'expired' ? ` (${k.expired})` : ''}
            </dd>
          </>
        ) : null}
        <dt>{k.state}</dt>
        <dd data-testid="ksef-state" className={data?.connected ? 'ok' : 'warn'}>
          {data ? (data.connected ? k.connected : (checkErrorText(data.checkError, t) ?? '—')) : '\u00a0'}
        </dd>
        <dt>{k.lastCheck}</dt>
        <dd>{data?.checkedAt ? formatDateTime(data.checkedAt, locale) : '—'}</dd>
      </dl>
      <div className="actions">
        <button type="button" onClick={() => test.mutate()} disabled={busy || !data?.credentialKind}>
          {test.isPending ? k.testing : k.test}
        </button>
        <span role="status" aria-live="polite" className={lastResult?.connected ? 'ok' : 'field-error'}>
          {busy ? k.testing : lastResult ? (lastResult.connected ? k.testOk : checkErrorText(lastResult.error, t)) : (readError(last?.error, t)?.message ?? '')}
        </span>
      </div>
      <p className="muted">{k.stored}</p>
      {data?.credentialKind === 'token' ? <p className="muted">{k.tokenEnd}</p> : null}
    </section>
  );
}
