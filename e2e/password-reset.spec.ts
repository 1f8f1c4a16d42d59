import { randomBytes } from 'node:crypto';
import type { SinkMessage } from '@/emulators/smtp/server';
import { expect, snap, test } from './fixtures';

/** The reset e-mails to `to` the stack's SMTP emulator holds, oldest first. */
const inbox = async (to: string) => (await (await fetch(`${process.env.E2E_SMTP_URL}/messages?to=${encodeURIComponent(to)}`)).json()) as SinkMessage[];

test('a forgotten password is reset through the e-mailed one-time link', async ({ page, auth, dashboard, browser }, info) => {
  const email = `e2e-reset-${randomBytes(4).toString('hex')}@example.test`;
  const oldPassword = 'correct horse battery';
  const newPassword = 'staple battery horse';
  const other = await browser.newContext({ baseURL: info.project.use.baseURL });
  const otherPage = await other.newPage();

  await test.step('a user exists and signs out', async () => {
    await page.goto('/signup');
    await auth.email().fill(email);
    await auth.password().fill(oldPassword);
    await auth.signUp().click();
    await expect(dashboard.secret()).toBeVisible();
    await auth.continue().click();
    await expect(dashboard.heading('Przegląd')).toBeVisible();
    await other.addCookies(await page.context().cookies());
    await dashboard.signOut().click();
    await expect(page).toHaveURL(/\/signin/);
  });

  await test.step('a copy of that session (another browser, a stolen cookie) still works before the reset', async () => {
    await otherPage.goto('/dashboard');
    await expect(otherPage.getByRole('heading', { level: 1, name: 'Przegląd' })).toBeVisible();
  });

  await test.step('"Forgot your password?" asks for the address and answers the same for any address', async () => {
    await page.getByRole('link', { name: 'Nie pamiętasz hasła?' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Zmiana hasła' })).toBeVisible();
    await auth.email().fill(`nobody-${randomBytes(4).toString('hex')}@example.test`);
    await page.getByRole('button', { name: 'Wyślij link' }).click();
    const answer = page.getByRole('status');
    await expect(answer).toContainText('Jeśli konto z tym adresem istnieje');
    const unknownAnswer = await answer.textContent();
    await page.goto('/forgot-password');
    await auth.email().fill(email);
    await page.getByRole('button', { name: 'Wyślij link' }).click();
    await expect(page.getByRole('status')).toHaveText(unknownAnswer!);
    await snap(page, info, 'reset-requested');
  });

  let link = '';
  await test.step('the e-mail at the SMTP emulator carries the link', async () => {
    await expect.poll(async () => (await inbox(email)).length, { timeout: 30_000 }).toBe(1);
    const [mail] = await inbox(email);
    link = /https?:\/\/\S+\/reset-password\/[0-9A-Za-z]+/.exec(mail!.text)?.[0] ?? '';
    expect(link).not.toBe('');
  });

  await test.step('the link sets a new password (sign-up rules) and signs in', async () => {
    await page.goto(new URL(link).pathname);
    await expect(page.getByText(email)).toBeVisible();
    await page.getByLabel('Nowe hasło', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Zmień hasło i zaloguj się' }).click();
    await expect(page.getByText('Hasło musi mieć co najmniej 10 znaków.')).toBeVisible();
    await snap(page, info, 'reset-form');
    await page.getByLabel('Nowe hasło', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Zmień hasło i zaloguj się' }).click();
    await expect(dashboard.heading('Przegląd')).toBeVisible();
    await dashboard.signOut().click();
    await expect(page).toHaveURL(/\/signin/);
  });

  await test.step('the reset ended every session signed in before it', async () => {
    await otherPage.goto('/dashboard');
    await expect(otherPage).toHaveURL(/\/signin/);
    await other.close();
  });

  await test.step('the link is spent; the old password fails, the new one works', async () => {
    await page.goto(new URL(link).pathname);
    await expect(page.getByRole('alert').filter({ hasText: 'Ten link do zmiany hasła jest nieznany' })).toBeVisible();
    await page.goto('/signin');
    await auth.email().fill(email);
    await auth.password().fill(oldPassword);
    await auth.signIn().click();
    await expect(page.getByText('Nieprawidłowy e-mail lub hasło.')).toBeVisible();
    await auth.password().fill(newPassword);
    await auth.signIn().click();
    await expect(dashboard.heading('Przegląd')).toBeVisible();
  });
});
