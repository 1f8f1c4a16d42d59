import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes } from '@/server/db/schema';
import { isSellerConfigured } from './account-settings';

export type SetupStep = 'seller' | 'ksef' | 'api_key' | 'first_invoice' | 'webhook';
export type SetupChecklist = { step: SetupStep; done: boolean }[];

/**
 * The overview's setup steps for the scope's mode, in the order a newcomer takes them. The API key step is
 * done once a key of the mode has called the API: every account has keys from sign-up. The webhook step is done
 * once an enabled endpoint took a delivery (an event's or a test event's): one added but never reached is not.
 */
export async function getSetupChecklist(db: DbOrTx, scope: Scope): Promise<SetupChecklist> {
  const [row] = await db
    .select({
      mode: accountModes,
      keyUsed: sql<boolean>`exists (select 1 from api_keys k where k.account_id = ${scope.accountId} and k.mode = ${scope.mode} and k.last_used_at is not null)`,
      invoiced: sql<boolean>`exists (select 1 from documents d where d.account_id = ${scope.accountId} and d.mode = ${scope.mode} and d.kind = 'invoice')`,
      webhook: sql<boolean>`exists (select 1 from webhook_endpoints w join webhook_deliveries wd on wd.endpoint_id = w.id
        where w.account_id = ${scope.accountId} and w.mode = ${scope.mode} and w.status = 'enabled' and wd.delivered = 'yes')`,
    })
    .from(accountModes)
    .where(inScope(accountModes, scope));
  if (!row) return [];
  return [
    { step: 'seller', done: isSellerConfigured(row.mode) },
    { step: 'ksef', done: row.mode.ksefConnected },
    { step: 'api_key', done: row.keyUsed },
    { step: 'first_invoice', done: row.invoiced },
    { step: 'webhook', done: row.webhook },
  ];
}
