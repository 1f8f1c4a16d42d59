import { eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import type { Scope } from '@/server/db/scope';
import { accountModes, numberCounters } from '@/server/db/schema';
import { jobKey } from '@/server/jobs/registry';
import { parseOrderInput } from '@/server/orders/order-schema';
import type { NormalizedOrder } from '@/server/orders/types';
import { createInvoiceDocument } from './create-invoice';
import { loadDocument } from './load-document';
import { prepareDocument } from './prepare-document';

/**
 * DESIGN invariant 9 at document_prepare: seller data that cannot make Podmiot1, and a document that cannot be built
 * or fails the FA(3) schema, end before a number is taken: no counter moves, no send job, the reason in last_error.
 */
const t = useTestDatabase();

async function account(sellerNip = VALID_SELLER.nip) {
  const acct = await createTestAccount(t.db());
  await t.db().update(accountModes).set({ sellerNip }).where(eq(accountModes.accountId, acct.accountId));
  return acct;
}

const counters = async (accountId: string) => t.db().select().from(numberCounters).where(eq(numberCounters.accountId, accountId));
const sendJobs = async (scope: Scope) => t.db().execute(sql`select 1 from graphile_worker.jobs where key = ${jobKey('ksef_send', scope)}`);

describe('document_prepare refuses before numbering', () => {
  test.each([
    ['a NIP with a wrong check digit', '7010002137', 'nip: 7010002137 is not a valid Polish NIP'],
    ['a NIP an older CLI stored with dashes (normalised, so it is used)', '526-025-02-74', null],
    ['a NIP of zeros (checksum right, FA(3) pattern wrong)', '0000000000', 'nip: 0000000000 is not a valid Polish NIP'],
  ])('seller with %s', async (_, nip, problem) => {
    const acct = await account(nip);
    const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder()));
    await prepareDocument(t.db(), document.id);
    const done = (await loadDocument(t.db(), document.id))!;
    if (problem === null) {
      expect([done.status, done.number]).toEqual(['queued', expect.stringMatching(/^FV\//)]);
      expect(await sendJobs(acct.testScope)).toHaveLength(1); // the query can see a send job
      return;
    }
    expect([done.status, done.number, done.lastError?.code]).toEqual(['skipped', null, 'seller_not_configured']);
    expect(done.lastError?.message).toContain(problem);
    expect(await counters(acct.accountId)).toEqual([]);
    expect(await sendJobs(acct.testScope)).toHaveLength(0);
  });

  test.each<[string, string, (o: NormalizedOrder) => NormalizedOrder, RegExp]>([
    // what the intake would refuse, stored by an older intake or a shop mapping: the builder's and the schema's rules
    [
      'a line that does not add up',
      'invoice_build_failed',
      (o) => ({ ...o, lines: [{ ...o.lines[0]!, grossGrosze: o.lines[0]!.grossGrosze + 1 }] }),
      /unit price ≠ \(line value/,
    ],
    ['a buyer NIP failing its checksum', 'invoice_build_failed', (o) => ({ ...o, buyer: { ...o.buyer, nip: '5260250275' } }), /buyer NIP/],
    ['a line name of control characters only', 'invoice_schema_invalid', (o) => ({ ...o, lines: [{ ...o.lines[0]!, name: '\u0001\u0002' }] }), /P_7/],
  ])('%s: error with %s, no number', async (_, code, edit, message) => {
    const acct = await account();
    const { document } = await createInvoiceDocument(t.db(), acct.testScope, edit(parseOrderInput(paidOrder())));
    await prepareDocument(t.db(), document.id);
    const done = (await loadDocument(t.db(), document.id))!;
    expect([done.status, done.number, done.lastError?.code]).toEqual(['error', null, code]);
    expect(done.lastError?.message).toMatch(message);
    expect(await counters(acct.accountId)).toEqual([]);
    expect(await sendJobs(acct.testScope)).toHaveLength(0);
  });
});
