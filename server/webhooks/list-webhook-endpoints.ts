import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { olderThanCursor, takePage, type Page, type PageQuery } from '@/server/db/keyset-page';
import { inScope, type Scope } from '@/server/db/scope';
import { webhookEndpoints } from '@/server/db/schema';
import type { WebhookEndpointRow } from './serialize-webhook-endpoint';

/** Enabled endpoints of the scope (spec 4.7), newest first, paged like every list (spec 4.12). */
export async function listWebhookEndpoints(db: DbOrTx, scope: Scope, q: PageQuery): Promise<Page<WebhookEndpointRow>> {
  const older = await olderThanCursor(db, webhookEndpoints, inScope(webhookEndpoints, scope), q.startingAfter, 'webhook endpoint');
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(inScope(webhookEndpoints, scope), eq(webhookEndpoints.status, 'enabled'), older))
    .orderBy(desc(webhookEndpoints.seq))
    .limit(q.limit + 1);
  return takePage(rows, q.limit);
}
