'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { readError } from './error-text';
import { Field } from './field';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { plural } from '@/app/i18n/plural';
import { useTRPC } from './trpc';

/** Connect a WooCommerce store, see what its webhooks and reconciliation are doing, disconnect it. */
export function StoreView() {
  const { t, locale } = useI18n();
  const s = t.store;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data, isLoading } = useQuery({ ...trpc.stores.status.queryOptions(), refetchInterval: 5_000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.stores.pathKey() });
  const connect = useMutation(trpc.stores.connect.mutationOptions({ onSuccess: refresh }));
  const disconnect = useMutation(trpc.stores.disconnect.mutationOptions({ onSettled: refresh }));
  const sync = useMutation(trpc.stores.sync.mutationOptions({ onSettled: refresh }));
  const [form, setForm] = useState({ url: '', consumerKey: '', consumerSecret: '', start: 'now' as 'now' | 'since', since: '' });
  const failure = readError(connect.error, t);
  const fieldError = (param: string) => (failure && failure.param === param ? failure.message : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { start, since, ...store } = form;
    connect.mutate({ ...store, ...(start === 'since' && { since }) });
  };

  if (isLoading) return <p>{t.common.loading}</p>;
  if (!data) {
    return (
      <>
        <h1>{s.title}</h1>
        <p className="muted">{s.intro}</p>
        <form className="card" onSubmit={submit} aria-label={s.connect}>
          <p className="muted">{s.keysHelp}</p>
          <Field
            label={s.url}
            name="url"
            type="url"
            required
            placeholder="https://sklep.example.pl"
            value={form.url}
            onChange={(e) => setForm({ ...form, url: e.target.value })}
            error={fieldError('url')}
          />
          <Field
            label={s.consumerKey}
            name="consumerKey"
            required
            autoComplete="off"
            value={form.consumerKey}
            onChange={(e) => setForm({ ...form, consumerKey: e.target.value })}
            error={fieldError('consumer_key')}
          />
          <Field
            label={s.consumerSecret}
            name="consumerSecret"
            type="password"
            required
            autoComplete="off"
            value={form.consumerSecret}
            onChange={(e) => setForm({ ...form, consumerSecret: e.target.value })}
            error={fieldError('consumer_secret')}
          />
          <fieldset className="radios">
            <legend>{s.invoiceFrom}</legend>
            <label>
              <input type="radio" name="start" checked={form.start === 'now'} onChange={() => setForm({ ...form, start: 'now' })} /> {s.fromConnecting}
            </label>
            <label>
              <input type="radio" name="start" checked={form.start === 'since'} onChange={() => setForm({ ...form, start: 'since' })} /> {s.fromDate}
            </label>
          </fieldset>
          {form.start === 'since' ? (
            <Field
              label={s.sinceDate}
              name="since"
              type="date"
              required
              hint={s.sinceHint}
              value={form.since}
              onChange={(e) => setForm({ ...form, since: e.target.value })}
              error={fieldError('since')}
            />
          ) : null}
          <div className="actions">
            <button type="submit" className="primary" disabled={connect.isPending}>
              {connect.isPending ? s.connecting : s.connect}
            </button>
            <span role="status" aria-live="polite" className="field-error">
              {failure && !['url', 'consumer_key', 'consumer_secret', 'since'].includes(failure.param ?? '') ? failure.message : ''}
            </span>
          </div>
        </form>
      </>
    );
  }

  const result = data.lastSyncResult;
  const statusLabel = (status: string) => (status === 'active' ? s.active : status === 'disabled' ? s.disabled : status === 'paused' ? s.paused : status);
  return (
    <>
      <h1>{s.title}</h1>
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
      <StoreSettings key={data.id} store={data} />
      <section className="card table-wrap" aria-labelledby="store-webhooks-h">
        <h2 id="store-webhooks-h">{s.webhooks}</h2>
        <table aria-label={s.webhooks}>
          <thead>
            <tr>
              <th>{s.topic}</th>
              <th>{s.webhookId}</th>
              <th>{s.webhookStatus}</th>
              <th>{s.checked}</th>
            </tr>
          </thead>
          <tbody>
            {data.webhooks.map((w) => (
              <tr key={w.id}>
                <td>{w.topic}</td>
                <td>{w.id}</td>
                <td className={w.status === 'active' ? 'ok' : 'warn'}>
                  {statusLabel(w.status)}
                  {w.note ? <span className="muted"> ({w.note})</span> : null}
                </td>
                <td>{w.checkedAt ? formatDateTime(w.checkedAt, locale) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card table-wrap" aria-labelledby="store-skipped-h">
        <h2 id="store-skipped-h">{s.skippedTitle}</h2>
        {data.skippedByReason.length === 0 ? (
          <p className="muted">{s.skippedEmpty}</p>
        ) : (
          <>
            <ul data-testid="store-skipped-counts">
              {data.skippedByReason.map((r) => (
                <li key={r.reason}>
                  {s.reasons[r.reason] ?? r.reason}: {r.count}
                </li>
              ))}
            </ul>
            <table aria-label={s.skippedTitle}>
              <thead>
                <tr>
                  <th>{s.order}</th>
                  <th>{s.reason}</th>
                  <th>{s.message}</th>
                  <th>{s.when}</th>
                </tr>
              </thead>
              <tbody>
                {data.skipped.map((r) => (
                  <tr key={`${r.kind}-${r.id}`}>
                    <td>
                      #{r.orderId}
                      {r.kind === 'refund' ? ` / ${r.id}` : ''}
                    </td>
                    <td>{s.reasons[r.reason ?? ''] ?? r.reason}</td>
                    {/* the store's own wording is English: shown to English readers, the reason column says it in Polish */}
                    <td className="muted">{t.lang === 'en' ? r.message : ''}</td>
                    <td>{formatDateTime(r.at, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>
      {data.writebackGiveUps.length ? (
        <section className="card table-wrap" aria-labelledby="store-writeback-h">
          <h2 id="store-writeback-h">{s.writebackTitle}</h2>
          <p className="warn">{s.writebackIntro}</p>
          <table aria-label={s.writebackTitle} data-testid="store-writeback-give-ups">
            <thead>
              <tr>
                <th>{s.order}</th>
                <th>{s.document}</th>
                <th>{s.reason}</th>
                <th>{s.message}</th>
                <th>{s.when}</th>
              </tr>
            </thead>
            <tbody>
              {data.writebackGiveUps.map((g) => (
                <tr key={g.documentId}>
                  <td>#{g.orderId}</td>
                  <td>{g.number ?? g.documentId}</td>
                  <td>{s.writebackReasons[g.reason ?? ''] ?? g.reason}</td>
                  <td className="muted">{g.message}</td>
                  <td>{g.at ? formatDateTime(g.at, locale) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </>
  );
}

type SettingsProps = {
  store: { id: string; invoiceStatuses: string[]; nipMetaKeys: string[] | null; paymentMethods: Record<string, string>; customerNote: boolean };
};

const list = (text: string) =>
  text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Invoice-now statuses, NIP meta keys, gateway map and the customer-note switch of the connection. */
function StoreSettings({ store }: SettingsProps) {
  const { t } = useI18n();
  const s = t.store;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(trpc.stores.settings.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.stores.pathKey() }) }));
  const [form, setForm] = useState({
    invoiceStatuses: store.invoiceStatuses.join(', '),
    nipMetaKeys: (store.nipMetaKeys ?? []).join(', '),
    paymentMethods: Object.entries(store.paymentMethods)
      .map(([k, v]) => `${k}=${v}`)
      .join(', '),
    customerNote: store.customerNote,
  });
  const failure = readError(save.error, t);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      id: store.id,
      invoiceStatuses: list(form.invoiceStatuses),
      nipMetaKeys: list(form.nipMetaKeys),
      paymentMethods: Object.fromEntries(
        list(form.paymentMethods).map((p) => p.split('=').map((x) => x.trim()) as [string, 'transfer' | 'card' | 'cash' | 'mobile']),
      ),
      customerNote: form.customerNote,
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="store-settings-h">
      <h2 id="store-settings-h">{s.settings}</h2>
      <Field
        label={s.invoiceStatuses}
        hint={s.invoiceStatusesHint}
        value={form.invoiceStatuses}
        onChange={(e) => setForm({ ...form, invoiceStatuses: e.target.value })}
      />
      <Field label={s.nipMetaKeys} hint={s.nipMetaKeysHint} value={form.nipMetaKeys} onChange={(e) => setForm({ ...form, nipMetaKeys: e.target.value })} />
      <Field
        label={s.paymentMethods}
        hint={s.paymentMethodsHint}
        value={form.paymentMethods}
        onChange={(e) => setForm({ ...form, paymentMethods: e.target.value })}
      />
      <label className="check-label">
        <input type="checkbox" checked={form.customerNote} onChange={(e) => setForm({ ...form, customerNote: e.target.checked })} /> {s.customerNote}
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? t.common.saving : s.saveSettings}
        </button>
        <span role="status" aria-live="polite" className={failure ? 'field-error' : 'ok'}>
          {failure ? failure.message : save.isSuccess ? t.common.saved : ''}
        </span>
      </div>
    </form>
  );
}
