import { ApiKeysView } from '@/app/components/api-keys-view';

export default function ApiKeysPage() {
  return <ApiKeysView />;
}
