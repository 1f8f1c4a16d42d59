import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@/emulators/smtp/server';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { resetConfig } from '@/server/config';
import type { Scope } from '@/server/db/scope';
import { documents, memberships, users } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { newId, randomToken } from '@/server/ids';
import { parsePayload } from '@/server/jobs/registry';
import { closeMailTransports } from '@/server/mail/send-mail';
import { metrics } from '@/server/observability/metrics';
import { parseOrderInput } from '@/server/orders/order-schema';
import { readAttentionGauge } from './attention-gauge';
import { setAttentionEmails } from './email-opt-out';
import { ATTENTION_KINDS } from './kinds';
import { notifyAttention } from './notify-attention';
import { sendAttentionEmail } from './send-attention-email';

const t = useTestDatabase();
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  process.env.SMTP_URL = sink.url;
  process.env.PUBLIC_BASE_URL = 'https://relay.example.test';
  resetConfig();
});
afterAll(async () => {
  closeMailTransports();
  await sink.close();
});

const T0 = new Date('2026-11-20T08:00:00Z');
const h = (hours: number) => new Date(T0.getTime() + hours * 3_600_000);

async function member(accountId: string) {
  const userId = newId('usr');
  const email = `m-${randomToken(32).toLowerCase()}@example.test`;
  await t.db().insert(users).values({ id: userId, email, passwordHash: 'x' });
  await t.db().insert(memberships).values({ userId, accountId, role: 'accountant' });
  return { userId, email };
}

async function failedDocument(scope: Scope, status: 'error' | 'rejected', updatedAt: Date) {
  const { document } = await createInvoiceDocument(t.db(), scope, parseOrderInput(paidOrder()));
  await t.db().update(documents).set({ status, updatedAt }).where(eq(documents.id, document.id));
}

/** Runs (then removes) the account's attention_mail jobs the way the worker's adapter does. */
async function runMailJobs(accountId: string): Promise<string[]> {
  const jobs = await t.db().execute<{ id: string; payload: unknown }>(
    sql`select j.id::text, j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id
      where k.identifier = 'attention_mail' and j.payload->>'accountId' = ${accountId} order by j.id`,
  );
  const outcomes: string[] = [];
  for (const job of jobs) {
    outcomes.push(await sendAttentionEmail(t.db(), parsePayload('attention_mail', job.payload)));
    await t.db().execute(sql`select graphile_worker.complete_jobs(array[${job.id}]::bigint[])`);
  }
  return outcomes;
}

const inbox = async (email: string) => (await (await fetch(`${sink.httpUrl}/messages?to=${encodeURIComponent(email)}`)).json()) as SinkMessage[];

describe('attention e-mails', () => {
  test('first occurrence at once to every opted-in member, then at most one digest a day; a new kind at once again', async () => {
    const acct = await createTestAccount(t.db());
    const [alice, bob, carol] = [await member(acct.accountId), await member(acct.accountId), await member(acct.accountId)];
    await setAttentionEmails(t.db(), carol.userId, acct.accountId, false);
    await failedDocument(acct.testScope, 'error', h(-1));

    await notifyAttention(t.db(), T0);
    expect(await runMailJobs(acct.accountId)).toEqual(['sent', 'sent']);
    const [first] = await inbox(alice.email);
    expect(first).toMatchObject({ subject: 'KSeF Relay: wymaga uwagi (testowy) / needs attention (test)' });
    expect(first!.text).toContain('* [nowe] Dokumenty z błędem (ostatnie 30 dni): 1.');
    expect(first!.text).toContain('* [new] Documents in error (last 30 days): 1.');
    expect(first!.text).toContain('https://relay.example.test/dashboard');
    expect(await inbox(bob.email)).toHaveLength(1);
    expect(await inbox(carol.email)).toHaveLength(0);

    // the same list within the day: nothing; a second error changes the count, not the kind: still nothing
    await failedDocument(acct.testScope, 'error', h(1));
    await notifyAttention(t.db(), h(2));
    expect(await runMailJobs(acct.accountId)).toEqual([]);

    // a new kind the same day goes at once, with the whole list
    await failedDocument(acct.testScope, 'rejected', h(3));
    await notifyAttention(t.db(), h(3));
    expect(await runMailJobs(acct.accountId)).toEqual(['sent', 'sent']);
    const second = (await inbox(alice.email))[1]!;
    expect(second.text).toContain('* Documents in error (last 30 days): 2.');
    expect(second.text).toContain('* [new] Documents rejected by KSeF (last 30 days): 1.');

    // the digest a day after the last e-mail, not before
    await notifyAttention(t.db(), h(26));
    expect(await runMailJobs(acct.accountId)).toEqual([]);
    await notifyAttention(t.db(), h(27));
    expect(await runMailJobs(acct.accountId)).toEqual(['sent', 'sent']);
    const digest = (await inbox(alice.email))[2]!;
    expect(digest.subject).toBe('KSeF Relay: podsumowanie dnia (testowy) / daily summary (test)');
    expect(digest.text).not.toContain('[new]');
    await notifyAttention(t.db(), h(28));
    expect(await runMailJobs(acct.accountId)).toEqual([]);
    expect(await inbox(alice.email)).toHaveLength(3);
    expect(await inbox(carol.email)).toHaveLength(0);
  });

  test('a member who turns the e-mails off after the check gets nothing; turning them on again takes the next e-mail', async () => {
    const acct = await createTestAccount(t.db());
    const dave = await member(acct.accountId);
    await failedDocument(acct.testScope, 'rejected', h(-1));
    await notifyAttention(t.db(), T0);
    await setAttentionEmails(t.db(), dave.userId, acct.accountId, false);
    expect(await runMailJobs(acct.accountId)).toEqual(['skipped']);
    expect(await inbox(dave.email)).toHaveLength(0);
    await setAttentionEmails(t.db(), dave.userId, acct.accountId, true);
    await notifyAttention(t.db(), h(24));
    expect(await runMailJobs(acct.accountId)).toEqual(['sent']);
    expect((await inbox(dave.email))[0]!.subject).toMatch(/daily summary/);
  });

  test('the operator gauge counts account modes per condition and mode, zero for the rest, no account ids', async () => {
    const a = await createTestAccount(t.db());
    const b = await createTestAccount(t.db());
    // months after the other tests' documents, which are then out of the 30-day window
    const now = new Date('2027-03-01T12:00:00Z');
    await failedDocument(a.testScope, 'rejected', new Date(now.getTime() - 3_600_000));
    await failedDocument(b.testScope, 'rejected', new Date(now.getTime() - 3_600_000));
    await readAttentionGauge(t.db(), now);
    const values = (await metrics().attention.get()).values;
    const value = (condition: string, mode: string) => values.find((v) => v.labels.condition === condition && v.labels.mode === mode)?.value;
    expect(value('documents_rejected', 'test')).toBe(2);
    expect(value('documents_rejected', 'live')).toBe(0);
    expect(value('plan_limit_near', 'live')).toBe(0);
    expect(values).toHaveLength(ATTENTION_KINDS.length * 2);
    expect(values.every((v) => Object.keys(v.labels).sort().join() === 'condition,mode')).toBe(true);
  });
});
