import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { webhookEndpoints, type Mode } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';

/** One webhook_deliver job per enabled endpoint of the event's scope subscribed to its type (or `*`). */
export async function enqueueDeliveries(tx: DbOrTx, event: { id: string; accountId: string; mode: Mode; type: string }): Promise<number> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.accountId, event.accountId),
        eq(webhookEndpoints.mode, event.mode),
        eq(webhookEndpoints.status, 'enabled'),
        sql`(${event.type} = any(${webhookEndpoints.enabledEvents}) or '*' = any(${webhookEndpoints.enabledEvents}))`,
      ),
    );
  for (const ep of endpoints) {
    await enqueue(tx, 'webhook_deliver', { eventId: event.id, endpointId: ep.id, attempt: 1 });
  }
  return endpoints.length;
}
