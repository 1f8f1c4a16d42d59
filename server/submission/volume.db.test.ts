import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { useKsefEmulator, useWorker } from '@/test/pipeline';
import { waitFor } from '@/test/web';
import { createBurst, findLimitBreaches } from '@/test/fixtures/burst';
import { getSendingStatus } from './sending-status';

/**
 * The emulator enforces KSeF's production limits (30 interactive invoices a minute, 180 an hour per context) and
 * the throttle runs with the same production table: no scaling. The 2,000-order burst fits in the test suite
 * because the batch path needs a handful of limited requests per batch (UPOs come from pre-signed links).
 * PDF and mail tasks are left out of this worker: they are not what is measured and would compete for the CPU.
 */
const t = useTestDatabase();
const ksef = useKsefEmulator({ limits: 'prod' });
useWorker(t.url, { tasks: '-pdf_render,-mail_send,-webhook_deliver' });

async function connectedSeller() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  return { ...acct, nip };
}

async function waitAccepted(ids: string[], timeoutMs: number) {
  let summary = '';
  await waitFor(
    async () => {
      const rows = await t.db().execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from documents where id in ${ids} group by 1`);
      summary = JSON.stringify(rows);
      return rows.length === 1 && rows[0]!.status === 'accepted';
    },
    timeoutMs,
    () => summary,
  );
}

/** Numbers 1..n per seller, and KSeF received each document's XML exactly once. */
async function expectGaplessAndOnce(ids: string[]) {
  const rows = await t
    .db()
    .execute<{ account_id: string; number: string; xml_sha256: string }>(sql`select account_id, number, xml_sha256 from documents where id in ${ids}`);
  const bySeller = new Map<string, number[]>();
  for (const r of rows) bySeller.set(r.account_id, [...(bySeller.get(r.account_id) ?? []), Number(r.number.split('/')[3])]);
  for (const numbers of bySeller.values()) expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
  const received = (await ksef.control().counters()).invoices.byHash;
  expect(rows.filter((r) => received[r.xml_sha256] !== 1)).toEqual([]);
}

test('a burst of 2,000 orders for one seller: all accepted in batch sessions, gapless, no 429, within every limit', async () => {
  const seller = await connectedSeller();
  const started = Date.now();
  const ids = await createBurst(t.db(), seller.testScope, 2_000);
  await waitAccepted(ids, 240_000);
  const seconds = (Date.now() - started) / 1000;
  await expectGaplessAndOnce(ids);
  const counters = await ksef.control().counters();
  expect(counters.rateLimited).toBe(0);
  expect(await findLimitBreaches(t.db())).toEqual([]);
  const batches = await t
    .db()
    .execute<{ n: number; docs: number }>(sql`select count(*)::int as n, sum(document_count)::int as docs from ksef_batches where status = 'done'`);
  expect(batches[0]!.docs).toBeGreaterThan(1_900); // the interactive path took at most the first few
  expect(batches[0]!.n).toBeLessThanOrEqual(20); // a batch gathers the queue, not one document each
  const status = await getSendingStatus(t.db(), seller.testScope);
  expect(status).toMatchObject({ queueDepth: 0, blockedUntil: null, rateLimitedCount: 0 });
  const invoiceSend = status.windows.find((w) => w.group === 'invoiceSend')!;
  expect(invoiceSend.used.minute).toBeLessThanOrEqual(30);
  console.log(`burst: 2000 accepted in ${seconds.toFixed(1)} s, ${batches[0]!.n} batches, KSeF requests ${JSON.stringify(counters.requests)}`);
}, 300_000);

test('50 sellers at once: each stays within its own limits, all accepted, no 429', async () => {
  const sellers = await Promise.all(Array.from({ length: 50 }, () => connectedSeller()));
  const ids = (await Promise.all(sellers.map((s, i) => createBurst(t.db(), s.testScope, 5 + (i % 4) * 10, 2)))).flat();
  await waitAccepted(ids, 240_000);
  await expectGaplessAndOnce(ids);
  expect((await ksef.control().counters()).rateLimited).toBe(0);
  expect(await findLimitBreaches(t.db())).toEqual([]);
  const statuses = await Promise.all(sellers.map((s) => getSendingStatus(t.db(), s.testScope)));
  for (const s of statuses) {
    for (const w of s.windows) if (w.perMinute !== null && w.group !== 'public') expect(w.used.minute).toBeLessThanOrEqual(w.perMinute);
  }
  // each seller's send steps ran in turn (sending-turn.ts): no seller opened a second online session
  const sessions = await t
    .db()
    .execute<{ n: number }>(
      sql`select count(*)::int as n from ksef_sessions where kind = 'online' and account_id in ${sellers.map((s) => s.accountId)} group by account_id`,
    );
  expect(sessions.filter((s) => s.n > 1)).toEqual([]);
}, 300_000);
