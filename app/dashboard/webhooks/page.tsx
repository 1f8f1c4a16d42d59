import { WebhooksView } from '../../components/webhooks-view';

export default function WebhooksPage() {
  return <WebhooksView />;
}
