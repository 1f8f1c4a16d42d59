import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@/emulators/smtp/server';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useWorker } from '@/test/pipeline';
import { resetConfig } from '@/server/config';
import { documents, memberships, users } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { newId } from '@/server/ids';
import { enqueue } from '@/server/jobs/enqueue';
import { closeMailTransports } from '@/server/mail/send-mail';
import { parseOrderInput } from '@/server/orders/order-schema';

const t = useTestDatabase();
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  process.env.SMTP_URL = sink.url;
  resetConfig();
});
afterAll(async () => {
  closeMailTransports();
  await sink.close();
});
useWorker(t.url, { tasks: 'attention_check,attention_mail' });

test('the worker runs attention_check and its attention_mail jobs: the member gets the e-mail over SMTP', async () => {
  const acct = await createTestAccount(t.db());
  const userId = newId('usr');
  await t.db().insert(users).values({ id: userId, email: 'owner-attention@example.test', passwordHash: 'x' });
  await t.db().insert(memberships).values({ userId, accountId: acct.accountId });
  const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder()));
  await t.db().update(documents).set({ status: 'error' }).where(eq(documents.id, document.id));

  await enqueue(t.db(), 'attention_check', {});
  const inbox = async () => (await (await fetch(`${sink.httpUrl}/messages?to=owner-attention@example.test`)).json()) as SinkMessage[];
  await expect.poll(async () => (await inbox()).length, { timeout: 20_000 }).toBe(1);
  expect((await inbox())[0]!.text).toContain('* [new] Documents in error (last 30 days): 1.');
});
