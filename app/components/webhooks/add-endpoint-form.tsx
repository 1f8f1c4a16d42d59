'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { EVENT_TYPES } from '@/server/facts/event-types';
import { readError } from '../error-text';
import { Field } from '../field';
import { useI18n } from '../i18n';
import { useTRPC } from '../trpc';
import { useRefresh } from '../use-refresh';

type EventChoice = (typeof EVENT_TYPES)[number] | '*';

/** Creating an endpoint; the page holds it, since the new endpoint's secret is shown once, above the list. */
export function useCreateEndpoint() {
  const trpc = useTRPC();
  const refresh = useRefresh(trpc.webhooks.pathKey());
  return useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: () => void refresh() }));
}

type Create = ReturnType<typeof useCreateEndpoint>;

/** Adds an endpoint: its URL, the events it takes (all by default), a description; the fields clear once it is added. */
export function AddEndpointForm({ create }: { create: Create }) {
  const { t } = useI18n();
  const w = t.webhooks;
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventChoice[]>(['*']);
  const [touched, setTouched] = useState(false);
  const failure = readError(create.error, t);
  const toggle = (e: EventChoice) => setEvents((cur) => (cur.includes(e) ? cur.filter((x) => x !== e) : [...cur, e]));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!url.trim() || events.length === 0) return;
    create.mutate(
      { url: url.trim(), enabled_events: events, description: description.trim() || undefined },
      {
        onSuccess: () => {
          setUrl('');
          setDescription('');
          setTouched(false);
        },
      },
    );
  };
  return (
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
  );
}
