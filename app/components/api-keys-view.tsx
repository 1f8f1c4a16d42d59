'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
  return (
    <>
      <h1>{k.title}</h1>
      {create.data ? <SecretOnce title={k.newKey} value={create.data.key} /> : null}
      <div className="table-wrap card">
        <table aria-label={k.title}>
          <thead>
            <tr>
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
                <td className="mono">{key.prefix}…</td>
                <td>{t.mode[key.mode]}</td>
                <td>{formatDateTime(key.createdAt, locale)}</td>
                <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt, locale) : k.never}</td>
                <td>
                  <button type="button" className="danger" onClick={() => window.confirm(k.confirmRevoke) && revoke.mutate({ id: key.id })}>
                    {k.revoke}
                  </button>
                </td>
              </tr>
            ))}
            {!data ? (
              <tr>
                <td colSpan={5}>{t.common.loading}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <button type="button" className="primary" onClick={() => create.mutate()} disabled={create.isPending}>
        {k.create}
      </button>
    </>
  );
}
