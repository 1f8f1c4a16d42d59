import type { webhookEndpoints } from '@/server/db/schema';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** WebhookEndpoint of spec 2.7. The secret is added by the create response only, never here. */
export const serializeWebhookEndpoint = (ep: WebhookEndpointRow) => ({
  id: ep.id,
  object: 'webhook_endpoint' as const,
  livemode: ep.mode === 'live',
  url: ep.url,
  enabled_events: ep.enabledEvents,
  description: ep.description,
  status: ep.status,
  created: Math.floor(ep.createdAt.getTime() / 1000),
});
