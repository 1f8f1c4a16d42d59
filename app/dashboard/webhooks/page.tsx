import { WebhooksView } from '@/app/components/webhooks-view';

export default function WebhooksPage() {
  return <WebhooksView />;
}
