import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { webhookEndpoints, type Mode } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';

/**
 * One webhook_deliver job per enabled endpoint of the event's scope subscribed to its type (or `*`). `recorded`,
 * the event's own insert, runs in the same statement as the endpoints' lookup: one round trip per event.
 */
export async function enqueueDeliveries(tx: DbOrTx, event: { id: string; accountId: string; mode: Mode; type: string }, recorded?: SQL): Promise<number> {
  const subscribed = and(
    eq(webhookEndpoints.accountId, event.accountId),
    eq(webhookEndpoints.mode, event.mode),
    eq(webhookEndpoints.status, 'enabled'),
    sql`(${event.type} = any(${webhookEndpoints.enabledEvents}) or '*' = any(${webhookEndpoints.enabledEvents}))`,
  );
  const endpoints = await tx.execute<{ id: string }>(
    sql`${recorded ? sql`with recorded as (${recorded}) ` : sql``}select ${webhookEndpoints.id} as id from ${webhookEndpoints} where ${subscribed}`,
  );
  for (const ep of endpoints) {
    await enqueue(tx, 'webhook_deliver', { eventId: event.id, endpointId: ep.id, attempt: 1 });
  }
  return endpoints.length;
}
