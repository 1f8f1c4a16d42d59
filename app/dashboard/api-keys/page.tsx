import { ApiKeysView } from '../../components/api-keys-view';

export default function ApiKeysPage() {
  return <ApiKeysView />;
}
