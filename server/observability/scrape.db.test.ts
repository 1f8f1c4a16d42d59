import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { parseOrderInput } from '@/server/orders/order-schema';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { metrics } from './metrics';
import { readDatabaseGauges } from './scrape';

const t = useTestDatabase();

test('offline documents not yet in KSeF are counted by deadline state at scrape', async () => {
  const { testScope } = await createTestAccount(t.db());
  const ids: string[] = [];
  for (const externalId of ['o-1', 'o-2', 'o-3', 'o-4']) {
    const { document } = await createInvoiceDocument(t.db(), testScope, parseOrderInput(paidOrder({ external_id: externalId })));
    ids.push(document.id);
  }
  const [missed, atRisk, onTime, numbered] = ids;
  const hours = (h: number) => sql`now() + make_interval(hours => ${h})`;
  await t.db().execute(sql`update documents set status = 'queued', offline_mode = true, offline_deadline = ${hours(-1)} where id = ${missed}`);
  await t.db().execute(sql`update documents set status = 'queued', offline_mode = true, offline_deadline = ${hours(2)} where id = ${atRisk}`);
  await t.db().execute(sql`update documents set status = 'queued', offline_mode = true, offline_deadline = ${hours(20)} where id = ${onTime}`);
  // already numbered by KSeF: no longer waiting, whatever its deadline
  await t
    .db()
    .execute(sql`update documents set status = 'accepted', offline_mode = true, offline_deadline = ${hours(-1)}, ksef_number = 'x' where id = ${numbered}`);

  await readDatabaseGauges(t.db());
  const values = (await metrics().offlineDocuments.get()).values.map((v) => ({ ...v.labels, n: v.value }));
  expect(values).toEqual(
    expect.arrayContaining([
      { mode: 'test', state: 'missed', n: 1 },
      { mode: 'test', state: 'at_risk', n: 1 },
      { mode: 'test', state: 'on_time', n: 1 },
    ]),
  );
  expect(values).toHaveLength(3);
});
