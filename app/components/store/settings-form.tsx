'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { readError } from '../error-text';
import { Field } from '../field';
import { useI18n } from '../i18n';
import { useTRPC } from '../trpc';
import { useRefresh } from '../use-refresh';

type SettingsProps = {
  store: { id: string; invoiceStatuses: string[]; nipMetaKeys: string[] | null; paymentMethods: Record<string, string>; customerNote: boolean };
};

const list = (text: string) =>
  text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Invoice-now statuses, NIP meta keys, gateway map and the customer-note switch of the connection. */
export function StoreSettings({ store }: SettingsProps) {
  const { t } = useI18n();
  const s = t.store;
  const trpc = useTRPC();
  const save = useMutation(trpc.stores.settings.mutationOptions({ onSuccess: useRefresh(trpc.stores.pathKey()) }));
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
