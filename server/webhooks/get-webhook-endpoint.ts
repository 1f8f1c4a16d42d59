import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { webhookEndpoints } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { WebhookEndpointRow } from './serialize-webhook-endpoint';

/** An endpoint of the scope, enabled or disabled; any other id is `404 resource_missing` (invariant 5). */
export async function getWebhookEndpoint(db: DbOrTx, scope: Scope, id: string): Promise<WebhookEndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(inScope(webhookEndpoints, scope), eq(webhookEndpoints.id, id)));
  if (!row) throw new AppError('resource_missing', 'id', `No such webhook endpoint: ${id}.`);
  return row;
}
