import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { config } from '@/server/config';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { parseOrderInput } from '@/server/orders/order-schema';

/**
 * The builder never emits XML the official schema refuses, so this file makes the schema refuse it: a scratch
 * copy of the schema directory (outside the repo) in which P_2 must be a currency code. The pipeline must stop
 * with invoice_schema_invalid and send nothing.
 */
const official = config().KSEF_SCHEMAS_DIR;
const scratch = mkdtempSync(path.join(tmpdir(), 'kr-xsd-'));
for (const entry of ['bazowe', 'auth', 'upo', 'catalog.xml']) symlinkSync(path.join(official, entry), path.join(scratch, entry));
const fa3 = 'schemat_FA(3)_v1-0E.xsd';
const stricter = readFileSync(path.join(official, fa3), 'utf8').replace(
  '<xsd:element name="P_2" type="tns:TZnakowy">',
  '<xsd:element name="P_2" type="tns:TKodWaluty">',
);
expect(stricter).toContain('name="P_2" type="tns:TKodWaluty"');
writeFileSync(path.join(scratch, fa3), stricter);
process.env.KSEF_SCHEMAS_DIR = scratch;

const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url);

test("FA(3) failing the schema: error with invoice_schema_invalid and the validator's message; nothing sent", async () => {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder()));
  const done = await waitForStatus(t.db(), document.id, ['accepted', 'rejected', 'error']);
  expect(done.status).toBe('error');
  expect(done.lastError).toMatchObject({ code: 'invoice_schema_invalid', type: 'invoice_error' });
  expect(done.lastError!.message).toMatch(/P_2/);
  expect(done.number).toBeNull(); // refused before numbering (DESIGN invariant 9)
  expect(done.ksefSessionRef).toBeNull();
  expect((await ksef.control().counters()).requests.sendInvoice ?? 0).toBe(0);
  const events = await t.db().execute<{ type: string }>(sql`select type from events where document_id = ${document.id}`);
  expect(events.map((e) => e.type)).toEqual(['invoice.error']);
});
