'use client';
import { useQuery } from '@tanstack/react-query';
import { useI18n } from './i18n';
import { SecretOnce } from './secret-once';
import { useTRPC } from './trpc';
import { AddEndpointForm, useCreateEndpoint } from './webhooks/add-endpoint-form';
import { EndpointsTable } from './webhooks/endpoints-table';

export function WebhooksView() {
  const { t } = useI18n();
  const w = t.webhooks;
  const trpc = useTRPC();
  const { data } = useQuery(trpc.webhooks.list.queryOptions());
  const create = useCreateEndpoint();
  return (
    <>
      <h1>{w.title}</h1>
      {create.data ? <SecretOnce title={w.created} value={create.data.secret} /> : null}
      <EndpointsTable data={data} />
      <AddEndpointForm create={create} />
    </>
  );
}
