'use client';
import { useMutation } from '@tanstack/react-query';
import { plural } from '@/app/i18n/plural';
import { readError } from '../error-text';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import { useTRPC } from '../trpc';
import { useRefresh } from '../use-refresh';
import type { StoreStatus } from './types';

/** The connected store's state: since when, last event and sync, counts; sync now and disconnect. */
export function StoreStateCard({ store: data }: { store: StoreStatus }) {
  const { t, locale } = useI18n();
  const s = t.store;
  const trpc = useTRPC();
  const refresh = useRefresh(trpc.stores.pathKey());
  const disconnect = useMutation(trpc.stores.disconnect.mutationOptions({ onSettled: refresh }));
  const sync = useMutation(trpc.stores.sync.mutationOptions({ onSettled: refresh }));
  const result = data.lastSyncResult;
  return (
    <section className="card" aria-labelledby="store-state-h">
      <h2 id="store-state-h">{s.state}</h2>
      <dl className="facts">
        <dt>{s.address}</dt>
        <dd data-testid="store-url">{data.url}</dd>
        <dt>{s.connectedSince}</dt>
        <dd>{formatDateTime(data.createdAt, locale)}</dd>
        <dt>{s.invoicingFrom}</dt>
        <dd data-testid="store-invoice-from">{formatDateTime(data.invoiceFrom, locale)}</dd>
        <dt>{s.lastEvent}</dt>
        <dd data-testid="store-last-event">{data.lastEventAt ? formatDateTime(data.lastEventAt, locale) : s.never}</dd>
        <dt>{s.lastSync}</dt>
        <dd>
          {data.lastSyncAt ? formatDateTime(data.lastSyncAt, locale) : s.never}
          {result && !result.error
            ? ` — ${s.syncResult.replace('{orders}', String(result.orders)).replace('{invoiced}', String(result.invoiced)).replace('{corrected}', String(result.corrected))}`
            : ''}
        </dd>
        <dt>{s.counts}</dt>
        <dd data-testid="store-counts">
          {plural(locale, data.invoiced, s.invoiced)}, {plural(locale, data.corrected, s.corrected)}
        </dd>
      </dl>
      {result?.error ? (
        <p className="field-error" role="alert">
          {s.syncError.replace('{error}', result.error)}
        </p>
      ) : null}
      {result?.webhooks.length ? (
        <p className="warn" data-testid="store-repaired">
          {s.repaired}: {result.webhooks.join('; ')}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" onClick={() => sync.mutate({ id: data.id })} disabled={sync.isPending}>
          {sync.isPending ? s.syncing : s.syncNow}
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => window.confirm(s.confirmDisconnect) && disconnect.mutate({ id: data.id })}
          disabled={disconnect.isPending}
        >
          {s.disconnect}
        </button>
        <span role="status" aria-live="polite" className="field-error">
          {readError(sync.error ?? disconnect.error, t)?.message ?? ''}
        </span>
      </div>
    </section>
  );
}
