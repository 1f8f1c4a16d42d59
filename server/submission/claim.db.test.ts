import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { Scope } from '@/server/db/scope';
import { loadDocument } from '@/server/documents/load-document';
import { jobKey } from '@/server/jobs/registry';
import { useTestDatabase } from '@/test/db';
import { expectExactlyOnce } from '@/test/exactly-once';
import { useKsefEmulator } from '@/test/pipeline';
import { queuedDocuments } from '@/test/queued-documents';
import { waitFor } from '@/test/web';
import { accessTokenFor } from '@/server/ksef-connection/access-token';
import { ksefClientFor } from '@/server/ksef-connection/ksef-clients';
import { closeBatchSession } from '@/server/ksef/batch-session';
import { settleRefusedClose } from './reconcile-batches';
import { sendQueuedInBatch } from './send-batch';
import { claimTakeoverSeconds } from './claim';
import { ensureDocumentXml } from './document-xml';
import { sendLane } from './send-lane';
import { loadSendingScope } from './sending-scope';

/**
 * Invariant 4 without the seller's lock: two send steps of one seller run at the same moment (as when a lock was
 * released while its step still ran). A transaction holding the documents' row locks stops both steps at their
 * first write to the documents; once both wait, it ends and they race. Every document must reach KSeF (the
 * emulator, over HTTP) exactly once.
 */
const t = useTestDatabase();
const ksef = useKsefEmulator();

const lockWaiters = async () =>
  (
    await t.db().execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)
  )[0]!.n;

/** Runs `steps` while holding the documents' row locks until `waiters` of them wait for those locks, then lets them race. */
async function race<T>(ids: string[], waiters: number, steps: () => Promise<T>[]): Promise<T[]> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const holding = new Promise<void>((r) => (locked = r));
  const holder = t.db().transaction(async (tx) => {
    await tx.execute(sql`select id from documents where id in ${ids} order by seq for update`);
    locked();
    await released;
  });
  await holding;
  const running = steps();
  try {
    await waitFor(
      async () => (await lockWaiters()) >= waiters,
      30_000,
      () => `fewer than ${waiters} steps waiting for the row locks`,
    );
  } finally {
    release();
    await holder;
  }
  return Promise.all(running);
}

const receivedAll = (ids: string[]) =>
  waitFor(
    async () => {
      const hashes = await t.db().execute<{ h: string | null }>(sql`select xml_sha256 as h from documents where id in ${ids}`);
      const received = (await ksef.control().counters()).invoices.byHash;
      return hashes.every((r) => r.h && received[r.h]);
    },
    30_000,
    () => 'not every document reached KSeF',
  );

test('two batch steps of one seller at the same moment: each document in exactly one package', async () => {
  const { scope, ids } = await queuedDocuments(t.db(), ksef, 12);
  const settings = await loadSendingScope(t.db(), scope);
  const client = ksefClientFor(t.db(), settings.credential!);
  const token = await accessTokenFor(t.db(), scope, client, settings.credential!);
  const outcomes = await race(ids, 2, () => [
    sendQueuedInBatch(t.db(), scope, client, token, settings.seller!, 100),
    sendQueuedInBatch(t.db(), scope, client, token, settings.seller!, 100),
  ]);
  const sent = outcomes.flatMap((o) => (o.kind === 'closed' ? o.documentIds : []));
  expect(sent.sort()).toEqual([...ids].sort());
  await receivedAll(ids);
  await expectExactlyOnce(t.db(), ksef.control(), ids);
  const members = await t.db().execute<{ n: number }>(sql`select count(*)::int as n from ksef_batch_documents where document_id in ${ids}`);
  expect(members[0]!.n).toBe(ids.length);
});

test("a lane's send step run twice at the same moment (online): each document uploaded once, the later step leaves it", async () => {
  const { scope, ids } = await queuedDocuments(t.db(), ksef, 3);
  await race(ids, 2, () => [sendLane(t.db(), scope), sendLane(t.db(), scope)]);
  await receivedAll(ids);
  await expectExactlyOnce(t.db(), ksef.control(), ids);
  const claims = await t
    .db()
    .execute<{ n: number }>(sql`select count(*)::int as n from document_transitions where document_id in ${ids} and to_status = 'sending'`);
  expect(claims[0]!.n).toBe(ids.length);
});

/** The lane's send step as its job runs it: fetched, the job is no longer a waiting job of the lane. */
async function runLane(scope: Scope) {
  await t.db().execute(sql`select graphile_worker.remove_job(${jobKey('ksef_send', scope)})`);
  await sendLane(t.db(), scope);
}

/** What a step that claimed the document and is still uploading (or died doing so) leaves: sending with its XML, no KSeF reference. */
async function claimedElsewhere(id: string, ageSeconds: number) {
  const doc = (await loadDocument(t.db(), id))!;
  const { seller } = await loadSendingScope(t.db(), { accountId: doc.accountId, mode: doc.mode });
  await ensureDocumentXml(t.db(), doc, seller!, null);
  await t.db().execute(sql`update documents set status = 'sending', updated_at = now() - make_interval(secs => ${ageSeconds}) where id = ${id}`);
}

test("a step that finds another step's fresh claim leaves the document to it and looks again once that claim is surely over", async () => {
  const { scope, ids } = await queuedDocuments(t.db(), ksef, 1);
  await claimedElsewhere(ids[0]!, 0);
  const sendsBefore = (await ksef.control().counters()).requests.sendInvoice ?? 0;
  await runLane(scope);
  const [doc] = await t.db().execute<{ status: string; ref: string | null }>(sql`select status, ksef_invoice_ref as ref from documents where id = ${ids[0]!}`);
  expect(doc).toEqual({ status: 'sending', ref: null });
  expect((await ksef.control().counters()).requests.sendInvoice ?? 0).toBe(sendsBefore);
  const [job] = await t
    .db()
    .execute<{ s: number }>(sql`select extract(epoch from run_at - now())::int as s from graphile_worker.jobs where key = ${jobKey('ksef_send', scope)}`);
  expect(job!.s).toBeGreaterThan(claimTakeoverSeconds() - 3);
});

test('a claim a crash abandoned (older than the takeover age, KSeF does not have it) is taken over and sent once', async () => {
  const { scope, ids } = await queuedDocuments(t.db(), ksef, 1);
  await claimedElsewhere(ids[0]!, claimTakeoverSeconds() + 5);
  await runLane(scope);
  await receivedAll(ids);
  await expectExactlyOnce(t.db(), ksef.control(), ids);
});

test('a close refused because another step closed the batch first settles it closed: nothing is queued again or sent twice', async () => {
  const { scope, ids } = await queuedDocuments(t.db(), ksef, 3);
  const settings = await loadSendingScope(t.db(), scope);
  const client = ksefClientFor(t.db(), settings.credential!);
  const token = await accessTokenFor(t.db(), scope, client, settings.credential!);
  const outcome = await sendQueuedInBatch(t.db(), scope, client, token, settings.seller!, 100);
  expect(outcome.kind).toBe('closed');
  const batchId = outcome.kind === 'closed' ? outcome.batchId : '';
  const [batch] = await t.db().execute<{ ref: string }>(sql`select reference_number as ref from ksef_batches where id = ${batchId}`);
  // the other step's view: it read the batch as uploaded and KSeF's session as open, then its close came second
  await t.db().execute(sql`update ksef_batches set status = 'uploaded' where id = ${batchId}`);
  await expect(closeBatchSession(client, token, batch!.ref)).rejects.toThrow();
  expect(await settleRefusedClose(t.db(), client, token, batchId, batch!.ref, 'close refused')).toBe('closed');
  const docs = await t.db().execute<{ status: string }>(sql`select status from documents where id in ${ids}`);
  expect(docs.every((d) => d.status === 'sending' || d.status === 'accepted')).toBe(true);
  await receivedAll(ids);
  await expectExactlyOnce(t.db(), ksef.control(), ids);
});
