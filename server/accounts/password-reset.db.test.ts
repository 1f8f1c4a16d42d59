import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@/emulators/smtp/server';
import { useTestDatabase } from '@/test/db';
import { useWorker } from '@/test/pipeline';
import { currentSessionUser } from '@/server/auth/session-validity';
import { verifySignIn } from '@/server/auth/sign-in';
import { resetConfig } from '@/server/config';
import { passwordResets, users } from '@/server/db/schema';
import { closeMailTransports } from '@/server/mail/send-mail';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/root';
import { previewPasswordReset, requestPasswordReset, RESET_REQUESTS_PER_WINDOW, RESET_TTL_MS, RESET_WINDOW_MS, resetPassword } from './password-reset';

const t = useTestDatabase();
const caller = createCallerFactory(appRouter);
const OLD = 'the old password';
const NEW = 'a brand new password';

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
  delete process.env.PUBLIC_BASE_URL;
  resetConfig();
});
useWorker(t.url, { tasks: 'password_reset_mail' });

const anonymous = () => caller({ db: t.db(), userId: null, mode: 'test' });
const inbox = async (to: string) => (await (await fetch(`${sink.httpUrl}/messages?to=${encodeURIComponent(to)}`)).json()) as SinkMessage[];

/** The reset link of the `nth` e-mail to `to`, as the SMTP emulator received it. */
async function resetLink(to: string, nth = 1): Promise<{ mail: SinkMessage; token: string }> {
  await expect.poll(async () => (await inbox(to)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(nth);
  const mail = (await inbox(to))[nth - 1]!;
  const token = /https:\/\/relay\.example\.test\/reset-password\/([0-9A-Za-z]+)/.exec(mail.text)?.[1];
  expect(token).toBeDefined();
  return { mail, token: token! };
}

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof TRPCError ? `${e.code} ${(e.cause as { code?: string } | undefined)?.code}` : (e as { code?: string }).code),
  );

async function user(email: string) {
  await anonymous().auth.signUp({ email, password: OLD });
  const [row] = await t.db().select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

describe('password reset', () => {
  test('request → e-mail at the SMTP emulator → new password; the old one fails, the link works once', async () => {
    const email = 'reset-life@example.test';
    const userId = await user(email);
    expect(await anonymous().auth.requestPasswordReset({ email: 'Reset-Life@Example.test' })).toEqual({ ok: true });
    const { mail, token } = await resetLink(email);
    expect(mail.subject).toContain('password reset');
    expect(mail.text).toContain('60');

    const [row] = await t.db().select().from(passwordResets).where(eq(passwordResets.userId, userId));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(RESET_TTL_MS);

    expect(await anonymous().auth.previewPasswordReset({ token })).toEqual({ email });
    expect(await code(anonymous().auth.resetPassword({ token, password: 'short' }))).toMatch(/^BAD_REQUEST/);
    const signedInBefore = Date.now() - 1;
    expect(await currentSessionUser(t.db(), userId, signedInBefore)).toBe(userId);
    expect(await anonymous().auth.resetPassword({ token, password: NEW })).toEqual({ email });
    // a session signed in before the reset (a stolen cookie, another browser) speaks for nobody now; a new one does
    expect(await currentSessionUser(t.db(), userId, signedInBefore)).toBeNull();
    expect(await currentSessionUser(t.db(), userId, undefined)).toBeNull();
    expect(await currentSessionUser(t.db(), userId, Date.now() + 1)).toBe(userId);
    expect(await verifySignIn(t.db(), email, NEW)).toEqual({ id: userId, email });
    expect(await verifySignIn(t.db(), email, OLD)).toBeNull();

    expect(await code(anonymous().auth.resetPassword({ token, password: 'yet another password' }))).toBe('NOT_FOUND reset_invalid');
    expect(await code(anonymous().auth.previewPasswordReset({ token }))).toBe('NOT_FOUND reset_invalid');
    expect(await verifySignIn(t.db(), email, NEW)).not.toBeNull();
  });

  test('a session of a user who is gone speaks for nobody', async () => {
    expect(await currentSessionUser(t.db(), 'usr_gone', Date.now())).toBeNull();
    expect(await currentSessionUser(t.db(), null, Date.now())).toBeNull();
  });

  test('an unknown address gets the same answer and no link', async () => {
    const email = 'nobody-here@example.test';
    const links = async () => (await t.db().select({ id: passwordResets.id }).from(passwordResets)).length;
    const before = await links();
    expect(await anonymous().auth.requestPasswordReset({ email })).toEqual({ ok: true });
    expect(await requestPasswordReset(t.db(), { email }, new Date())).toBe('unknown');
    // no link, so no e-mail job: the job is enqueued with the link in one transaction
    expect(await links()).toBe(before);
  });

  test('the link expires after an hour (injected clock)', async () => {
    const email = 'reset-expiry@example.test';
    await user(email);
    const now = new Date();
    expect(await requestPasswordReset(t.db(), { email }, now)).toBe('sent');
    const { token } = await resetLink(email);
    const later = (ms: number) => new Date(now.getTime() + ms);
    expect(await previewPasswordReset(t.db(), token, later(RESET_TTL_MS - 1000))).toEqual({ email });
    await expect(previewPasswordReset(t.db(), token, later(RESET_TTL_MS))).rejects.toMatchObject({ code: 'reset_invalid' });
    await expect(resetPassword(t.db(), token, 'unused-hash', later(RESET_TTL_MS + 1000))).rejects.toMatchObject({ code: 'reset_invalid' });
    expect(await verifySignIn(t.db(), email, OLD)).not.toBeNull();
  });

  test('a newer request invalidates the older link', async () => {
    const email = 'reset-newer@example.test';
    await user(email);
    await anonymous().auth.requestPasswordReset({ email });
    const first = (await resetLink(email, 1)).token;
    await anonymous().auth.requestPasswordReset({ email });
    const second = (await resetLink(email, 2)).token;
    expect(second).not.toBe(first);
    expect(await code(anonymous().auth.resetPassword({ token: first, password: NEW }))).toBe('NOT_FOUND reset_invalid');
    expect(await anonymous().auth.resetPassword({ token: second, password: NEW })).toEqual({ email });
    expect(await verifySignIn(t.db(), email, NEW)).not.toBeNull();
  });

  test('requests per address are limited; over the limit nothing is sent and the answer stays the same', async () => {
    const email = 'reset-limit@example.test';
    await user(email);
    const now = new Date();
    for (let i = 0; i < RESET_REQUESTS_PER_WINDOW; i++) expect(await requestPasswordReset(t.db(), { email }, now)).toBe('sent');
    expect(await requestPasswordReset(t.db(), { email }, new Date(now.getTime() + 1000))).toBe('limited');
    expect(await anonymous().auth.requestPasswordReset({ email })).toEqual({ ok: true });
    expect(await requestPasswordReset(t.db(), { email }, new Date(now.getTime() + RESET_WINDOW_MS + 1000))).toBe('sent');
    const rows = await t.db().select().from(passwordResets).innerJoin(users, eq(users.id, passwordResets.userId)).where(eq(users.email, email));
    expect(rows).toHaveLength(RESET_REQUESTS_PER_WINDOW + 1);
    // only the newest link is open
    expect(rows.filter((r) => r.password_resets.revokedAt === null)).toHaveLength(1);
  });
});
