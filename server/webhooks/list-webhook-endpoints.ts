import { and, desc, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { inScope, type Scope } from '../db/scope';
import { webhookEndpoints } from '../db/schema';
import { AppError } from '../errors';
import type { WebhookEndpointRow } from './serialize-webhook-endpoint';

export type ListWebhookEndpointsQuery = { limit: number; startingAfter?: string };

/** Enabled endpoints of the scope (spec 4.7), newest first, paged like every list (spec 4.12). */
export async function listWebhookEndpoints(db: DbOrTx, scope: Scope, q: ListWebhookEndpointsQuery): Promise<{ hasMore: boolean; endpoints: WebhookEndpointRow[] }> {
  const active = and(inScope(webhookEndpoints, scope), eq(webhookEndpoints.status, 'enabled'));
  let beforeSeq: number | undefined;
  if (q.startingAfter) {
    const [cursor] = await db
      .select({ seq: webhookEndpoints.seq })
      .from(webhookEndpoints)
      .where(and(inScope(webhookEndpoints, scope), eq(webhookEndpoints.id, q.startingAfter)));
    if (!cursor) throw new AppError('resource_missing', 'starting_after', `No such webhook endpoint: ${q.startingAfter}.`);
    beforeSeq = cursor.seq;
  }
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(active, beforeSeq !== undefined ? lt(webhookEndpoints.seq, beforeSeq) : undefined))
    .orderBy(desc(webhookEndpoints.seq))
    .limit(q.limit + 1);
  return { hasMore: rows.length > q.limit, endpoints: rows.slice(0, q.limit) };
}
