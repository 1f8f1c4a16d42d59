import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { startSmtpSink, type SinkMessage } from '@/emulators/smtp/server';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { resetConfig } from '@/server/config';
import { createDb } from '@/server/db/client';
import { documents, files } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { newId, randomToken } from '@/server/ids';
import { parseOrderInput } from '@/server/orders/order-schema';
import { readFixture } from '@/test/fixtures/wc-payloads';
import { MAIL_ATTEMPTS } from '@/server/jobs/registry';
import { sendDocumentEmail } from './send-document-email';
import { closeMailTransports } from './send-mail';

const t = useTestDatabase();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});
afterAll(() => closeMailTransports());

const useSmtp = (url: string) => {
  process.env.SMTP_URL = url;
  resetConfig();
};

/** An accepted document whose PDF is stored and whose e-mail is pending: the state pdf_render leaves. */
async function pendingMail() {
  const acct = await createTestAccount(t.db());
  const email = `b-${randomToken(48).toLowerCase()}@example.test`;
  const order = paidOrder();
  const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput({ ...order, buyer: { ...order.buyer, email } }));
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(20_000)]);
  const fileId = newId('file');
  await t.db().insert(files).values({ id: fileId, documentId: document.id, contentType: 'application/pdf', filename: 'FV-2026-06-0042.pdf', content: pdf });
  await t
    .db()
    .update(documents)
    .set({
      status: 'accepted',
      number: 'FV/2026/06/0042',
      issueDate: '2026-06-02',
      ksefNumber: '5265877635-20260602-01000016B2C4-ED',
      fa3Xml: readFixture('fa3-vat-pln-order-4817.xml'),
      pdfFileId: fileId,
      pdfToken: randomToken(128),
      mailStatus: 'pending',
    })
    .where(eq(documents.id, document.id));
  return { id: document.id, accountId: acct.accountId, email, pdf };
}

const mailState = async (id: string) =>
  (
    await t
      .db()
      .select({
        status: documents.mailStatus,
        error: documents.mailError,
        attempts: documents.mailAttempts,
        inS: sql<number>`extract(epoch from ${documents.mailRetryAt} - now())::float8`,
      })
      .from(documents)
      .where(eq(documents.id, id))
  )[0]!;

/** A minimal SMTP server on raw TCP that takes one message and then drops the connection without answering DATA. */
async function startDroppingServer(): Promise<{ url: string; received: string[] }> {
  const received: string[] = [];
  const server: Server = createServer((socket) => {
    let data: string | null = null;
    socket.write('220 drop.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      if (data !== null) {
        data += chunk.toString('latin1');
        if (data.endsWith('\r\n.\r\n')) {
          received.push(data);
          socket.destroy(); // the message is in; the "250 OK" never leaves
        }
        return;
      }
      for (const line of chunk.toString('latin1').split('\r\n').filter(Boolean)) {
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') socket.write('250 drop.test\r\n');
        else if (cmd === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (cmd === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

async function startSmtp(options: ConstructorParameters<typeof SMTPServer>[0]): Promise<string> {
  const server = new SMTPServer({ authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false, closeTimeout: 500, ...options });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

describe('sendDocumentEmail', () => {
  test('the database connection cut right after the server took the message: still recorded sent (issue 18.9)', async () => {
    const appName = `kr-mail-${randomToken(32)}`;
    const db = createDb(t.url(), { applicationName: appName });
    closers.push(() => db.$client.end({ timeout: 1 }));
    const received: string[] = [];
    const url = await startSmtp({
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks).toString('latin1'));
          // the worker's connections die while the 250 is on its way
          t.db()
            .execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${appName}`)
            .then(() => callback(), callback);
        });
      },
    });
    useSmtp(url);
    const doc = await pendingMail();
    expect(await sendDocumentEmail(db, doc.id)).toBe('sent');
    expect(received).toHaveLength(1);
    expect(await mailState(doc.id)).toMatchObject({ status: 'sent', error: null });
  });

  test('sends the PDF once; a second run finds nothing pending', async () => {
    const sink = await startSmtpSink();
    closers.push(sink.close);
    useSmtp(sink.url);
    const doc = await pendingMail();
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('sent');
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('not_pending');
    const messages = (await (await fetch(`${sink.httpUrl}/messages`)).json()) as SinkMessage[];
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ to: [doc.email], subject: 'Faktura FV/2026/06/0042 – Kawowy Świat Sp. z o.o. / Invoice FV/2026/06/0042' });
    expect(Buffer.from(messages[0]!.attachments[0]!.content, 'base64').equals(doc.pdf)).toBe(true);
    expect(await mailState(doc.id)).toMatchObject({ status: 'sent', error: null });
  });

  test('runs at the same moment: one claims and sends, every other finds nothing pending', async () => {
    const sink = await startSmtpSink();
    closers.push(sink.close);
    useSmtp(sink.url);
    const doc = await pendingMail();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => sendDocumentEmail(t.db(), doc.id)));
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'not_pending')).toHaveLength(7);
    const messages = (await (await fetch(`${sink.httpUrl}/messages`)).json()) as SinkMessage[];
    expect(messages.filter((m) => m.to.includes(doc.email))).toHaveLength(1);
  });

  test('the claim is committed before SMTP answers: a run during delivery (a retry after a crash) sends nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let arrived = 0;
    const url = await startSmtp({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          arrived++;
          void gate.then(() => callback());
        });
      },
    });
    useSmtp(url);
    const doc = await pendingMail();
    const first = sendDocumentEmail(t.db(), doc.id);
    await expect.poll(() => arrived, { timeout: 10_000 }).toBe(1);
    // what the dashboard and a retried job see while SMTP has the message but has not answered
    const during = await mailState(doc.id);
    expect(during.status).toBe('failed');
    expect(during.error).toMatch(/^Delivery started at .* may or may not have arrived/);
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('not_pending');
    release();
    expect(await first).toBe('sent');
    expect(arrived).toBe(1);
    expect(await mailState(doc.id)).toMatchObject({ status: 'sent', error: null });
  });

  test('a 4xx refusal goes back to pending with its reason, its attempt counted and its retry job; the last attempt stays failed', async () => {
    const url = await startSmtp({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 450 }));
      },
    });
    useSmtp(url);
    const doc = await pendingMail();
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('retry');
    const retrying = await mailState(doc.id);
    expect(retrying).toMatchObject({ status: 'pending', attempts: 1 });
    expect(retrying.error).toMatch(/450 Mailbox busy/);
    // graphile-worker's back-off after a first failure: e seconds; the lane's mail step is due then
    const [job] = await t.db().execute<{ delay: number }>(
      sql`select extract(epoch from j.run_at - d.mail_retry_at)::float8 as delay from graphile_worker.jobs j, documents d
        where j.task_identifier = 'mail_send' and j.key = ${`mail:${doc.accountId}:test`} and d.id = ${doc.id}`,
    );
    expect(job?.delay).toBe(0);
    expect(retrying.inS).toBeGreaterThan(1.5);
    expect(retrying.inS).toBeLessThan(3);
    // a second attempt while not due is the caller's choice (the lane skips it); the count goes on to the last
    await t
      .db()
      .update(documents)
      .set({ mailAttempts: MAIL_ATTEMPTS - 1 })
      .where(eq(documents.id, doc.id));
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('failed');
    expect(await mailState(doc.id)).toMatchObject({ status: 'failed', attempts: MAIL_ATTEMPTS, error: expect.stringMatching(/450 Mailbox busy/) });
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('not_pending');
  });

  test('connection refused is a refusal too', async () => {
    const gone = await startSmtpSink();
    await gone.close();
    useSmtp(gone.url);
    const doc = await pendingMail();
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('retry');
    expect(await mailState(doc.id)).toMatchObject({ status: 'pending', error: expect.stringMatching(/ECONNREFUSED/) });
  });

  test('the connection lost after DATA: the outcome is open, so it is recorded as failed and never resent', async () => {
    const server = await startDroppingServer();
    useSmtp(server.url);
    const doc = await pendingMail();
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('failed');
    expect(server.received).toHaveLength(1);
    const state = await mailState(doc.id);
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(/Connection closed unexpectedly.*may or may not have arrived/);
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('not_pending');
    expect(server.received).toHaveLength(1);
  });

  test('no SMTP_URL: failed with the reason, nothing to retry', async () => {
    delete process.env.SMTP_URL;
    resetConfig();
    const doc = await pendingMail();
    expect(await sendDocumentEmail(t.db(), doc.id)).toBe('failed');
    expect((await mailState(doc.id)).error).toMatch(/SMTP_URL/);
  });
});
