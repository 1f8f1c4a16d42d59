import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { webhookEndpoints } from '@/server/db/schema';
import { getWebhookEndpoint } from './get-webhook-endpoint';

/**
 * DELETE of spec 4.10: the endpoint is kept (its delivery log stays readable) but disabled, so no event is
 * enqueued for it and jobs already queued for it are dropped when they run. Repeating it is harmless.
 */
export async function disableWebhookEndpoint(db: DbOrTx, scope: Scope, id: string): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
  await getWebhookEndpoint(db, scope, id);
  await db
    .update(webhookEndpoints)
    .set({ status: 'disabled' })
    .where(and(inScope(webhookEndpoints, scope), eq(webhookEndpoints.id, id)));
  return { id, object: 'webhook_endpoint', deleted: true };
}
