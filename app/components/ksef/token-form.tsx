'use client';
import { useState } from 'react';
import { readError } from '../error-text';
import { Field } from '../field';
import { useI18n } from '../i18n';
import type { KsefActions } from './use-ksef-actions';

/** Saves a KSeF token. */
export function TokenForm({ actions: { saveToken, busy } }: { actions: KsefActions }) {
  const { t } = useI18n();
  const k = t.ksef;
  const [token, setToken] = useState('');
  return (
    <form
      className="card form"
      aria-labelledby="token-h"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (token.trim()) saveToken.mutate({ token });
      }}
    >
      <h2 id="token-h">{k.tokenTitle}</h2>
      <Field
        label={k.token}
        name="token"
        autoComplete="off"
        value={token}
        onChange={(e) => setToken(e.target.value)}
        error={readError(saveToken.error, t)?.message}
      />
      <button type="submit" className="primary" disabled={busy || !token.trim()}>
        {k.saveToken}
      </button>
    </form>
  );
}
