'use client';
import { useQuery } from '@tanstack/react-query';
import { useI18n } from './i18n';
import { ConnectStoreForm } from './store/connect-form';
import { StoreSettings } from './store/settings-form';
import { StoreSkippedCard } from './store/skipped-card';
import { StoreStateCard } from './store/state-card';
import { StoreWebhooksCard } from './store/webhooks-card';
import { StoreWritebackCard } from './store/writeback-card';
import { useTRPC } from './trpc';

/** Connect a WooCommerce store, see what its webhooks and reconciliation are doing, disconnect it. */
export function StoreView() {
  const { t } = useI18n();
  const s = t.store;
  const trpc = useTRPC();
  const { data, isLoading } = useQuery({ ...trpc.stores.status.queryOptions(), refetchInterval: 5_000 });
  if (isLoading) return <p>{t.common.loading}</p>;
  if (!data) {
    return (
      <>
        <h1>{s.title}</h1>
        <p className="muted">{s.intro}</p>
        <ConnectStoreForm />
      </>
    );
  }
  return (
    <>
      <h1>{s.title}</h1>
      <StoreStateCard store={data} />
      <StoreSettings key={data.id} store={data} />
      <StoreWebhooksCard store={data} />
      <StoreSkippedCard store={data} />
      <StoreWritebackCard store={data} />
    </>
  );
}
