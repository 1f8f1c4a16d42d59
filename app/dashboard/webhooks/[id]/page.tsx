import { WebhookLog } from '@/app/components/webhook-log';

export default async function WebhookLogPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WebhookLog id={id} />;
}
