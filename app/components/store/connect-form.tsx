'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { readError } from '../error-text';
import { Field } from '../field';
import { useI18n } from '../i18n';
import { useTRPC } from '../trpc';
import { useRefresh } from '../use-refresh';

/** The form that connects a WooCommerce store: its address, REST keys, and from when orders are invoiced. */
export function ConnectStoreForm() {
  const { t } = useI18n();
  const s = t.store;
  const trpc = useTRPC();
  const connect = useMutation(trpc.stores.connect.mutationOptions({ onSuccess: useRefresh(trpc.stores.pathKey()) }));
  const [form, setForm] = useState({ url: '', consumerKey: '', consumerSecret: '', start: 'now' as 'now' | 'since', since: '' });
  const failure = readError(connect.error, t);
  const fieldError = (param: string) => (failure && failure.param === param ? failure.message : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { start, since, ...store } = form;
    connect.mutate({ ...store, ...(start === 'since' && { since }) });
  };
  return (
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
  );
}
