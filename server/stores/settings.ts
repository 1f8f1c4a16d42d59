import { and, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { storeConnections } from '@/server/db/schema';
import { AppError } from '@/server/errors';

const slug = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_-]+$/, 'lower-case letters, digits, - and _');

/** What a merchant may change on a connection; unset fields stay as they are. */
export const ZStoreSettings = z.object({
  invoiceStatuses: z.array(slug).min(1).max(20).optional(),
  /** Empty: the mapping's default list. */
  nipMetaKeys: z.array(z.string().trim().min(1).max(255)).max(30).optional(),
  paymentMethods: z.record(slug, z.enum(['transfer', 'card', 'cash', 'mobile'])).optional(),
  customerNote: z.boolean().optional(),
});
export type StoreSettingsInput = z.input<typeof ZStoreSettings>;

export async function updateStoreSettings(db: Db, scope: Scope, storeId: string, input: StoreSettingsInput): Promise<void> {
  const parsed = ZStoreSettings.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('parameter_invalid', issue.path.join('.') || undefined, issue.message);
  }
  const s = parsed.data;
  const changes = {
    ...(s.invoiceStatuses ? { invoiceStatuses: s.invoiceStatuses } : {}),
    ...(s.nipMetaKeys ? { nipMetaKeys: s.nipMetaKeys.length ? s.nipMetaKeys : null } : {}),
    ...(s.paymentMethods ? { paymentMethods: s.paymentMethods } : {}),
    ...(s.customerNote !== undefined ? { customerNote: s.customerNote } : {}),
  };
  if (Object.keys(changes).length === 0) return;
  const updated = await db
    .update(storeConnections)
    .set(changes)
    .where(
      and(
        eq(storeConnections.id, storeId),
        eq(storeConnections.accountId, scope.accountId),
        eq(storeConnections.mode, scope.mode),
        ne(storeConnections.status, 'disconnected'),
      ),
    )
    .returning({ id: storeConnections.id });
  if (updated.length === 0) throw new AppError('resource_missing', 'store', `No such store: ${storeId}.`);
}
