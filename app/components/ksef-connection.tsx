'use client';
import { useQuery } from '@tanstack/react-query';
import { useI18n } from './i18n';
import { CertificateForm } from './ksef/certificate-form';
import { EmulatorCard } from './ksef/emulator-card';
import { KsefStateCard } from './ksef/state-card';
import { TokenForm } from './ksef/token-form';
import { useKsefActions } from './ksef/use-ksef-actions';
import { useTRPC } from './trpc';

export function KsefConnection() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const { data } = useQuery(trpc.ksef.status.queryOptions());
  const actions = useKsefActions();
  return (
    <>
      <h1>{t.ksef.title}</h1>
      <KsefStateCard data={data} actions={actions} />
      <EmulatorCard data={data} actions={actions} />
      <div className="grid-2">
        <TokenForm actions={actions} />
        <CertificateForm actions={actions} />
      </div>
    </>
  );
}
