'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { SecretOnce } from './secret-once';
import { useTRPC } from './trpc';

export function ApiKeysView() {
  const { t, locale } = useI18n();
  const k = t.apiKeys;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useQuery(trpc.apiKeys.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.pathKey() });
  const create = useMutation(trpc.apiKeys.create.mutationOptions({ onSuccess: () => void refresh() }));
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: () => void refresh() }));
  const rename = useMutation(trpc.apiKeys.rename.mutationOptions({ onSuccess: () => void refresh() }));
  const [name, setName] = useState('');
  return (
    <>
      <h1>{k.title}</h1>
      {create.data ? <SecretOnce title={k.newKey} value={create.data.key} /> : null}
      <div className="table-wrap card">
        <table aria-label={k.title}>
          <thead>
            <tr>
              <th scope="col">{k.name}</th>
              <th scope="col">{k.prefix}</th>
              <th scope="col">{k.mode}</th>
              <th scope="col">{k.created}</th>
              <th scope="col">{k.lastUsed}</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {data?.map((key) => (
              <tr key={key.id}>
                <td>{key.name ?? '—'}</td>
                <td className="mono">{key.prefix}…</td>
                <td>{t.mode[key.mode]}</td>
                <td>{formatDateTime(key.createdAt, locale)}</td>
                <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt, locale) : k.never}</td>
                <td className="row-actions">
                  <button
                    type="button"
                    onClick={() => {
                      const next = window.prompt(k.renamePrompt, key.name ?? '');
                      if (next !== null) rename.mutate({ id: key.id, name: next.trim() || null });
                    }}
                  >
                    {k.rename}
                  </button>
                  <button type="button" className="danger" onClick={() => window.confirm(k.confirmRevoke) && revoke.mutate({ id: key.id })}>
                    {k.revoke}
                  </button>
                </td>
              </tr>
            ))}
            {!data ? (
              <tr>
                <td colSpan={6}>{t.common.loading}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ name: name.trim() || undefined }, { onSuccess: () => setName('') });
        }}
      >
        <div className="field grow">
          <label htmlFor="key-name">{k.name}</label>
          <input id="key-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} aria-describedby="key-name-hint" />
          <p id="key-name-hint" className="field-hint">
            {k.nameHint}
          </p>
        </div>
        <button type="submit" className="primary" disabled={create.isPending}>
          {k.create}
        </button>
      </form>
    </>
  );
}
