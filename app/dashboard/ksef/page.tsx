import { KsefConnection } from '@/app/components/ksef-connection';
import { OfflineSettings } from '@/app/components/offline-settings';

export default function KsefPage() {
  return (
    <>
      <KsefConnection />
      <OfflineSettings />
    </>
  );
}
