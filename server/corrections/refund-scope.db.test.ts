import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { AppError } from '@/server/errors';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import { createCorrectionDocument } from './create-correction';

/**
 * A refund external_id is unique per account and mode (issue 18.6): the same id on a second invoice is refused at
 * `refund.external_id` whether the requests come one after the other or at the same time; a repeat on the same
 * invoice returns the existing correction. Never a 500, never another invoice's correction.
 */
const t = useTestDatabase();

const refundInput = (id: string) =>
  parseRefundInput({ external_id: id, lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }] });

async function twoInvoices() {
  const acct = await createTestAccount(t.db());
  const make = async () => (await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder()))).document.id;
  return { scope: acct.testScope, a: await make(), b: await make() };
}

type Outcome = { created: boolean; invoice: string | null } | { code: string; param?: string };
const attempt = (scope: Awaited<ReturnType<typeof twoInvoices>>['scope'], invoiceId: string, refundId: string): Promise<Outcome> =>
  createCorrectionDocument(t.db(), scope, invoiceId, refundInput(refundId)).then(
    (r) => ({ created: r.created, invoice: r.document.invoiceId }),
    (err: unknown) => {
      if (err instanceof AppError) return { code: err.code, param: err.param };
      throw err;
    },
  );

const refused = { code: 'parameter_invalid', param: 'refund.external_id' };

test('one after the other, in both orders: the first invoice gets the correction, the second is refused', async () => {
  for (const order of ['ab', 'ba'] as const) {
    const { scope, a, b } = await twoInvoices();
    const [first, second] = order === 'ab' ? [a, b] : [b, a];
    expect(await attempt(scope, first, 'refund-1')).toEqual({ created: true, invoice: first });
    expect(await attempt(scope, second, 'refund-1')).toEqual(refused);
    expect(await attempt(scope, first, 'refund-1')).toEqual({ created: false, invoice: first });
  }
});

test('at the same time on two invoices, 20 trials: one correction, the other request refused the same way', async () => {
  const tally = { created: 0, refused: 0 };
  for (let trial = 0; trial < 20; trial++) {
    const { scope, a, b } = await twoInvoices();
    const results = await Promise.all([attempt(scope, a, `refund-${trial}`), attempt(scope, b, `refund-${trial}`)]);
    const winner = results.find((r) => 'created' in r && r.created) as { invoice: string } | undefined;
    expect(winner).toBeDefined();
    expect(results.filter((r) => 'code' in r)).toEqual([refused]);
    tally.created++;
    tally.refused++;
    // the loser's invoice has no correction, and a later repeat on it is refused the same way
    const loser = winner!.invoice === a ? b : a;
    expect(await attempt(scope, loser, `refund-${trial}`)).toEqual(refused);
  }
  console.log(`refund scope: 20 concurrent trials, ${tally.created} corrections created, ${tally.refused} refused, 0 errors`);
});

test('at the same time on the same invoice: one correction, the other request gets it back (200)', async () => {
  const { scope, a } = await twoInvoices();
  const results = await Promise.all(Array.from({ length: 5 }, () => attempt(scope, a, 'refund-same')));
  expect(results.filter((r) => 'created' in r && r.created)).toHaveLength(1);
  expect(results.filter((r) => 'created' in r && !r.created)).toHaveLength(4);
  expect(results.every((r) => 'invoice' in r && r.invoice === a)).toBe(true);
});
