import { AddressInfo } from 'node:net';
import { eq, inArray, sql } from 'drizzle-orm';
import { runOnce } from 'graphile-worker';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@/emulators/smtp/server';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { readFixture } from '@/test/fixtures/wc-payloads';
import { paidOrder } from '@/test/orders';
import { resetConfig } from '@/server/config';
import { documents } from '@/server/db/schema';
import type { Scope } from '@/server/db/scope';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { randomToken } from '@/server/ids';
import { enqueue } from '@/server/jobs/enqueue';
import { MAIL_ATTEMPTS } from '@/server/jobs/registry';
import { parseOrderInput } from '@/server/orders/order-schema';
import { createTaskList } from '@/worker/task-list';
import { mailLane } from './mail-lane';
import { closeMailTransports } from './send-mail';
import { PDF_ATTEMPTS, renderLane } from './pdf-lane';
import { restorePdfMailJobs } from './restore-lane-jobs';

const t = useTestDatabase();
let sink: SmtpSink;
const closers: (() => Promise<void>)[] = [];
const useSmtp = (url: string) => {
  process.env.SMTP_URL = url;
  resetConfig();
};
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterEach(async () => {
  useSmtp(sink.url);
  while (closers.length) await closers.pop()!();
});
afterAll(async () => {
  closeMailTransports();
  await sink?.close();
});

/** `n` accepted documents of one lane with a buyer e-mail and no PDF yet: what acceptance leaves for pdf_render. */
async function acceptedLane(n: number): Promise<{ scope: Scope; ids: string[]; emails: string[] }> {
  const acct = await createTestAccount(t.db());
  const ids: string[] = [];
  const emails: string[] = [];
  for (let i = 0; i < n; i++) {
    const email = `b-${randomToken(48).toLowerCase()}@example.test`;
    const order = paidOrder();
    const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput({ ...order, buyer: { ...order.buyer, email } }));
    await t
      .db()
      .update(documents)
      .set({
        status: 'accepted',
        number: `FV/2026/06/${i + 1}`,
        issueDate: '2026-06-02',
        ksefNumber: '5265877635-20260602-01000016B2C4-ED',
        fa3Xml: readFixture('fa3-vat-pln-order-4817.xml'),
        pdfToken: randomToken(128),
      })
      .where(eq(documents.id, document.id));
    ids.push(document.id);
    emails.push(email);
  }
  return { scope: acct.testScope, ids, emails };
}

const state = async (ids: string[]) =>
  t
    .db()
    .select({
      id: documents.id,
      pdf: documents.pdfFileId,
      mail: documents.mailStatus,
      mailAttempts: documents.mailAttempts,
      pdfAttempts: documents.pdfAttempts,
    })
    .from(documents)
    .where(inArray(documents.id, ids))
    .orderBy(documents.seq);

const laneJobs = async (scope: Scope) =>
  t.db().execute<{ task: string; in_s: number }>(
    sql`select task_identifier as task, extract(epoch from run_at - now())::float8 as in_s from graphile_worker.jobs
        where key in (${`pdf:${scope.accountId}:test`}, ${`mail:${scope.accountId}:test`}) order by task_identifier`,
  );

/** How many job rows were added since it was called (graphile-worker's id sequence: rows deleted since still count). */
async function jobRowCounter(): Promise<() => Promise<number>> {
  const sequence = async () =>
    Number(
      (
        await t.db().execute<{ n: string }>(sql`select coalesce(last_value, 0)::text as n from pg_sequences
          where schemaname = 'graphile_worker' and sequencename = split_part(pg_get_serial_sequence('graphile_worker._private_jobs', 'id'), '.', 2)`)
      )[0]!.n,
    );
  const before = await sequence();
  return async () => (await sequence()) - before;
}

const inbox = async (to: string) => (await (await fetch(`${sink.httpUrl}/messages?to=${encodeURIComponent(to)}`)).json()) as SinkMessage[];

/** Moves every retry time of the documents to the past: the lane's next step, without waiting for it. */
const due = (ids: string[]) =>
  t
    .db()
    .update(documents)
    .set({ mailRetryAt: sql`now() - interval '1 second'`, pdfRetryAt: sql`now() - interval '1 second'` })
    .where(inArray(documents.id, ids));

async function refusingSmtp(): Promise<string> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    closeTimeout: 500,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 450 }));
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

describe('the PDF lane', () => {
  test('one job row renders and mails every document of a burst; nothing is left in the queue', async () => {
    useSmtp(sink.url);
    const lane = await acceptedLane(4);
    // every acceptance enqueues the lane's step, as poll-status does
    for (let i = 0; i < lane.ids.length; i++) await t.db().transaction((tx) => enqueue(tx, 'pdf_render', lane.scope));
    expect(await laneJobs(lane.scope)).toMatchObject([{ task: 'pdf_render' }]);
    const rowsAdded = await jobRowCounter();
    await runOnce({ connectionString: t.url(), taskList: createTaskList(t.db()) });
    expect(await rowsAdded()).toBe(0); // no mail_send, no second pdf_render
    expect(await state(lane.ids)).toEqual(lane.ids.map((id) => ({ id, pdf: expect.any(String), mail: 'sent', mailAttempts: 1, pdfAttempts: 0 })));
    for (const email of lane.emails) expect(await inbox(email)).toHaveLength(1);
    expect(await t.db().execute(sql`select 1 from graphile_worker.jobs`)).toHaveLength(0);
  });

  test('a document whose render throws does not stop the others; it is retried later, then given up, never in a loop', async () => {
    useSmtp(sink.url);
    const lane = await acceptedLane(3);
    const broken = lane.ids[1]!;
    await t.db().update(documents).set({ fa3Xml: '<Faktura>' }).where(eq(documents.id, broken));
    await renderLane(t.db(), lane.scope);
    const after = await state(lane.ids);
    expect(after.map((d) => [d.mail, d.pdfAttempts])).toEqual([
      ['sent', 0],
      [null, 1],
      ['sent', 0],
    ]);
    // the lane's next step is due when the broken one's retry is: two minutes on
    const [next] = await laneJobs(lane.scope);
    expect(next).toMatchObject({ task: 'pdf_render' });
    expect(next!.in_s).toBeGreaterThan(100);
    expect(next!.in_s).toBeLessThan(121);
    // its retries, each due, up to the last
    for (let attempt = 2; attempt <= PDF_ATTEMPTS; attempt++) {
      await due([broken]);
      await renderLane(t.db(), lane.scope);
    }
    expect((await state([broken]))[0]).toMatchObject({ pdf: null, pdfAttempts: PDF_ATTEMPTS });
    await t.db().execute(sql`delete from graphile_worker._private_jobs`);
    await due([broken]);
    await renderLane(t.db(), lane.scope);
    expect((await state([broken]))[0]!.pdfAttempts).toBe(PDF_ATTEMPTS);
    expect(await laneJobs(lane.scope)).toEqual([]);
    // given up is final: the sweep brings no job back for it
    await t.db().execute(sql`update documents set updated_at = now() - interval '2 minutes' where id = ${broken}`);
    expect(await restorePdfMailJobs(t.db())).toEqual({ pdf: 0, mail: 0 });
  });

  test('an SMTP refusal is retried by the lane mail step at its time, the others wait with it, and the last attempt ends failed', async () => {
    useSmtp(await refusingSmtp());
    const lane = await acceptedLane(2);
    await renderLane(t.db(), lane.scope);
    // the first refusal stops the run's mailing: the second document is not tried, so not counted
    expect((await state(lane.ids)).map((d) => [d.mail, d.mailAttempts])).toEqual([
      ['pending', 1],
      ['pending', 0],
    ]);
    const [retry] = await laneJobs(lane.scope);
    expect(retry).toMatchObject({ task: 'mail_send' });
    expect(retry!.in_s).toBeGreaterThan(1.5);
    expect(retry!.in_s).toBeLessThan(3);

    await t
      .db()
      .update(documents)
      .set({ mailAttempts: MAIL_ATTEMPTS - 1 })
      .where(eq(documents.id, lane.ids[0]!));
    await due(lane.ids);
    await mailLane(t.db(), lane.scope);
    const [last, other] = await state(lane.ids);
    expect(last).toMatchObject({ mail: 'failed', mailAttempts: MAIL_ATTEMPTS });
    expect(other).toMatchObject({ mail: 'pending', mailAttempts: 1 });

    useSmtp(sink.url);
    await due(lane.ids);
    await mailLane(t.db(), lane.scope);
    expect((await state(lane.ids)).map((d) => d.mail)).toEqual(['failed', 'sent']);
    expect(await inbox(lane.emails[0]!)).toHaveLength(0);
    expect(await inbox(lane.emails[1]!)).toHaveLength(1);
    // the second refusal's step is still queued; run at its time it finds nothing due, sends nothing, adds nothing
    expect(await laneJobs(lane.scope)).toMatchObject([{ task: 'mail_send' }]);
    await t.db().execute(sql`delete from graphile_worker._private_jobs where key = ${`mail:${lane.scope.accountId}:test`}`);
    await mailLane(t.db(), lane.scope);
    expect(await laneJobs(lane.scope)).toEqual([]);
    expect(await inbox(lane.emails[1]!)).toHaveLength(1);
  });

  test('the sweep gives a lane back its lost PDF step, and its lost mail step at the retry time', async () => {
    useSmtp(sink.url);
    const pdfLane = await acceptedLane(1);
    const mailLaneDocs = await acceptedLane(1);
    await renderLane(t.db(), mailLaneDocs.scope);
    const retryAt = new Date(Date.now() + 600_000);
    await t.db().update(documents).set({ mailStatus: 'pending', mailRetryAt: retryAt }).where(eq(documents.id, mailLaneDocs.ids[0]!));
    await t.db().execute(sql`delete from graphile_worker._private_jobs`);
    // within its minute's grace a document is left alone (an inline e-mail may be on its way)
    expect(await restorePdfMailJobs(t.db())).toEqual({ pdf: 0, mail: 0 });
    await t.db().execute(sql`update documents set updated_at = now() - interval '2 minutes' where id in (${pdfLane.ids[0]!}, ${mailLaneDocs.ids[0]!})`);
    expect(await restorePdfMailJobs(t.db())).toEqual({ pdf: 1, mail: 1 });
    expect(await laneJobs(pdfLane.scope)).toMatchObject([{ task: 'pdf_render' }]);
    const [mail] = await laneJobs(mailLaneDocs.scope);
    expect(mail).toMatchObject({ task: 'mail_send' });
    expect(mail!.in_s).toBeGreaterThan(590);
    // restored once: a second sweep finds the jobs
    expect(await restorePdfMailJobs(t.db())).toEqual({ pdf: 0, mail: 0 });
    await runOnce({ connectionString: t.url(), taskList: createTaskList(t.db()) });
    expect((await state(pdfLane.ids))[0]).toMatchObject({ pdf: expect.any(String), mail: 'sent' });
  });
});
