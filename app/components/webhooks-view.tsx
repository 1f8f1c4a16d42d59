'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { readError } from './error-text';
import { Field } from './field';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { SecretOnce } from './secret-once';
import { useTRPC } from './trpc';
import { EVENT_TYPES } from '@/server/facts/event-types';

type EventChoice = (typeof EVENT_TYPES)[number] | '*';

export function WebhooksView() {
  const { t, locale } = useI18n();
  const w = t.webhooks;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useQuery(trpc.webhooks.list.queryOptions());
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventChoice[]>(['*']);
  const [touched, setTouched] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: () => {
        setUrl('');
        setDescription('');
        setTouched(false);
        void refresh();
      },
    }),
  );
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSuccess: () => void refresh() }));
  const failure = readError(create.error, t);
  const toggle = (e: EventChoice) => setEvents((cur) => (cur.includes(e) ? cur.filter((x) => x !== e) : [...cur, e]));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!url.trim() || events.length === 0) return;
    create.mutate({ url: url.trim(), enabled_events: events, description: description.trim() || undefined });
  };
  return (
    <>
      <h1>{w.title}</h1>
      {create.data ? <SecretOnce title={w.created} value={create.data.secret} /> : null}
      <div className="table-wrap card">
        <table aria-label={w.title}>
          <thead>
            <tr>
              <th scope="col">{w.url}</th>
              <th scope="col">{w.events}</th>
              <th scope="col">{w.description}</th>
              <th scope="col">{t.apiKeys.created}</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {data?.map((ep) => (
              <tr key={ep.id}>
                <td className="mono">
                  <Link href={`/dashboard/webhooks/${ep.id}`}>{ep.url}</Link>
                </td>
                <td>{ep.enabled_events.join(', ')}</td>
                <td>{ep.description ?? '—'}</td>
                <td>{formatDateTime(ep.created, locale)}</td>
                <td className="row-actions">
                  <Link href={`/dashboard/webhooks/${ep.id}`}>{w.deliveryLog}</Link>
                  <button type="button" className="danger" onClick={() => window.confirm(w.confirmDelete) && remove.mutate({ id: ep.id })}>
                    {t.common.delete}
                  </button>
                </td>
              </tr>
            ))}
            {data && data.length === 0 ? (
              <tr>
                <td colSpan={5}>{w.empty}</td>
              </tr>
            ) : null}
            {!data ? (
              <tr>
                <td colSpan={5}>{t.common.loading}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <form className="card form" onSubmit={submit} noValidate aria-labelledby="add-endpoint-h">
        <h2 id="add-endpoint-h">{w.add}</h2>
        <Field
          label={w.url}
          name="url"
          type="url"
          inputMode="url"
          placeholder="https://"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={touched && !url.trim() ? t.common.required : failure?.param === 'url' ? failure.message : null}
          required
        />
        <fieldset className="checks">
          <legend>{w.events}</legend>
          <label>
            <input type="checkbox" checked={events.includes('*')} onChange={() => toggle('*')} /> {w.allEvents}
          </label>
          {EVENT_TYPES.map((e) => (
            <label key={e}>
              <input type="checkbox" checked={events.includes(e)} onChange={() => toggle(e)} /> <code>{e}</code>
            </label>
          ))}
          <p className="field-error" role={touched && events.length === 0 ? 'alert' : undefined}>
            {touched && events.length === 0 ? w.pickEvent : '\u00a0'}
          </p>
        </fieldset>
        <Field label={w.description} name="description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} />
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            {w.add}
          </button>
          {failure && failure.param !== 'url' ? <span className="field-error">{failure.message}</span> : null}
        </div>
      </form>
    </>
  );
}
