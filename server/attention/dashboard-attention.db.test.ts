import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { paidOrder } from '@/test/orders';
import { verifySignIn } from '@/server/auth/sign-in';
import { documents } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { parseOrderInput } from '@/server/orders/order-schema';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/root';

const t = useTestDatabase();
const caller = createCallerFactory(appRouter);

test("the overview carries the scope's attention list and the member's e-mail switch, which the member turns off", async () => {
  const anonymous = caller({ db: t.db(), userId: null, mode: 'test' });
  await anonymous.auth.signUp({ email: 'attention@example.test', password: 'long enough password' });
  const user = (await verifySignIn(t.db(), 'attention@example.test', 'long enough password'))!;
  const as = caller({ db: t.db(), userId: user.id, mode: 'test' });
  expect((await as.account.overview()).attention).toEqual({ entries: [], emails: true });

  const { accountId } = await as.account.me();
  const { document } = await createInvoiceDocument(t.db(), { accountId, mode: 'test' }, parseOrderInput(paidOrder()));
  await t.db().update(documents).set({ status: 'rejected' }).where(eq(documents.id, document.id));
  await as.account.setAttentionEmails({ on: false });
  expect((await as.account.overview()).attention).toEqual({
    entries: [{ kind: 'documents_rejected', count: 1, href: '/dashboard/invoices?status=rejected' }],
    emails: false,
  });
});
