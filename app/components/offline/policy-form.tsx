'use client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { readError } from '../error-text';
import { Field } from '../field';
import { useI18n } from '../i18n';
import { useTRPC } from '../trpc';
import { useRefreshOffline, type OfflineStatus } from './types';

type Policy = 'off' | 'when_unavailable' | 'always';

/** The "issue offline" setting and its delay. */
export function OfflinePolicyForm({ data }: { data: OfflineStatus }) {
  const { t } = useI18n();
  const o = t.offline;
  const trpc = useTRPC();
  const setPolicy = useMutation(trpc.offline.setPolicy.mutationOptions(useRefreshOffline()));
  const [policy, setPolicyChoice] = useState<Policy | null>(null);
  const [delay, setDelay] = useState<string | null>(null);
  const chosenPolicy = policy ?? data?.policy ?? 'off';
  const chosenDelay = delay ?? String(data?.delaySeconds ?? 300);
  return (
    <form
      className="card form"
      aria-labelledby="offline-setting-h"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setPolicy.mutate({ policy: chosenPolicy, delaySeconds: Number(chosenDelay) });
      }}
    >
      <h2 id="offline-setting-h">{o.settingTitle}</h2>
      <fieldset className="radios">
        <legend>{o.settingTitle}</legend>
        {(['off', 'when_unavailable', 'always'] as const).map((p) => (
          <label key={p}>
            <input type="radio" name="offline-policy" checked={chosenPolicy === p} onChange={() => setPolicyChoice(p)} /> {o.policy[p]}
          </label>
        ))}
      </fieldset>
      <Field
        label={o.delay}
        name="delay"
        inputMode="numeric"
        value={chosenDelay}
        onChange={(e) => setDelay(e.target.value)}
        error={readError(setPolicy.error, t)?.param === 'delay_seconds' ? readError(setPolicy.error, t)?.message : null}
      />
      {readError(setPolicy.error, t)?.param === 'policy' ? (
        <p className="field-error" role="alert">
          {readError(setPolicy.error, t)?.message}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={setPolicy.isPending}>
        {o.saveSetting}
      </button>
    </form>
  );
}
