'use client';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import { useTRPC, type RouterOutputs } from '../trpc';
import { useRefresh } from '../use-refresh';

/** The account's webhook endpoints, each with its delivery log and a delete button. */
export function EndpointsTable({ data }: { data: RouterOutputs['webhooks']['list'] | undefined }) {
  const { t, locale } = useI18n();
  const w = t.webhooks;
  const trpc = useTRPC();
  const refresh = useRefresh(trpc.webhooks.pathKey());
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSuccess: () => void refresh() }));
  return (
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
  );
}
