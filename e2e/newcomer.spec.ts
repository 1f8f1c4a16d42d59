import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { apiClient, expect, snap, test } from './fixtures';

const paidOrder = (externalId: string) => ({
  external_id: externalId,
  number: '1001',
  paid_at: new Date(Date.now() - 60_000).toISOString(),
  currency: 'PLN',
  payment_method: 'card',
  buyer: { nip: 'PL 526-025-02-74', name: 'Kupiec sp. z o.o.', address_line1: 'ul. Długa 5', address_line2: '00-002 Warszawa', email: 'kupiec@example.test' },
  lines: [
    { name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 2, unit_price: '49.99', discount: '5.00', vat_rate: '23' },
    { name: 'Książka', sku: 'KS-7', quantity: 1, unit_price: '39.90', vat_rate: '5' },
  ],
  shipping: [{ name: 'Kurier', price: '15.00', vat_rate: '23' }],
});

const PAGES = ['/dashboard', '/dashboard/invoices', '/dashboard/seller', '/dashboard/ksef', '/dashboard/webhooks', '/dashboard/api-keys', '/dashboard/events'];

test("a newcomer's whole journey", async ({ page, baseURL, auth, dashboard, seller, ksef, invoices, webhooks, receiver }, info) => {
  const email = `e2e-${randomBytes(4).toString('hex')}@example.test`;
  const password = 'correct horse battery';
  let key = '';

  await test.step('sign up and see the test key once', async () => {
    await page.goto('/signup');
    await snap(page, info, 'signup');
    await auth.email().fill('not-an-email');
    await auth.password().fill('short');
    await auth.signUp().click();
    await expect(page.getByText('Podaj poprawny adres e-mail.')).toBeVisible();
    await expect(page.getByText('Hasło musi mieć co najmniej 10 znaków.')).toBeVisible();
    await auth.email().fill(email);
    await auth.password().fill(password);
    await auth.signUp().click();
    await expect(dashboard.secret()).toBeVisible();
    key = (await dashboard.secret().textContent()) ?? '';
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{20,}$/);
    await snap(page, info, 'signup-key');
    await auth.continue().click();
    await expect(dashboard.heading('Przegląd')).toBeVisible();
    await expect(dashboard.checklist()).toHaveCount(5);
    await expect(dashboard.checklist().first()).toContainText('do zrobienia');
    await snap(page, info, 'overview-new');
  });

  await test.step('seller data, with the NIP checked as it is typed', async () => {
    await dashboard.nav('Dane sprzedawcy').click();
    await expect(seller.state()).toContainText('niekompletne');
    await seller.nip().fill('5260250275');
    await expect(page.getByText('NIP ma niepoprawną sumę kontrolną.')).toBeVisible();
    await expect(seller.nip()).toHaveAttribute('aria-invalid', 'true');
    await seller.nip().fill('526-025-02-74');
    await expect(page.getByText('NIP poprawny.')).toBeVisible();
    await seller.name().fill('Sklep E2E sp. z o.o.');
    await seller.address1().fill('ul. Testowa 1');
    await seller.address2().fill('00-001 Warszawa');
    await seller.save().click();
    await expect(seller.state()).toHaveText('Dane sprzedawcy są kompletne.');
    await snap(page, info, 'seller');
  });

  await test.step('connect KSeF with test credentials from the emulator', async () => {
    await dashboard.nav('Połączenie z KSeF').click();
    await ksef.createTestCredentials().click();
    await expect(ksef.state()).toHaveText('Połączono z KSeF');
    await ksef.testConnection().click();
    await expect(page.getByText('Uwierzytelnienie w KSeF powiodło się.')).toBeVisible();
    await snap(page, info, 'ksef');
  });

  await test.step('add a webhook endpoint; its secret is shown once', async () => {
    await dashboard.nav('Webhooki').click();
    await webhooks.add().click();
    await expect(page.getByText('To pole jest wymagane.')).toBeVisible();
    await webhooks.url().fill(receiver.url);
    await webhooks.add().click();
    await expect(dashboard.secret()).toHaveText(/^whsec_/);
    await expect(webhooks.endpoint(receiver.url)).toBeVisible();
    await snap(page, info, 'webhooks');
  });

  const orderId = `order-${randomBytes(4).toString('hex')}`;
  let invoiceId = '';
  await test.step('create an invoice through the API with the shown key and watch it become accepted', async () => {
    const api = apiClient(baseURL!, key);
    const created = await api.createInvoice(paidOrder(orderId));
    expect(created.status).toBe(201);
    invoiceId = created.json.id as string;
    await dashboard.nav('Faktury').click();
    const row = invoices.row(orderId);
    await expect(row).toBeVisible();
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'accepted', { timeout: 60_000 });
    await invoices.search().fill('526-025-02-74');
    await page.getByRole('button', { name: 'Szukaj' }).click();
    await expect(invoices.row(orderId)).toBeVisible();
    await invoices.search().fill('no-such-order');
    await page.getByRole('button', { name: 'Szukaj' }).click();
    await expect(page.getByText('Brak dokumentów.')).toBeVisible();
    await invoices.search().fill('');
    await invoices.statusFilter().selectOption('accepted');
    await page.getByRole('button', { name: 'Szukaj' }).click();
    await expect(invoices.row(orderId)).toBeVisible();
    await snap(page, info, 'invoices');
  });

  await test.step('open the invoice, see its timeline and download its PDF', async () => {
    await invoices.row(orderId).getByRole('link').click();
    await expect(invoices.statusSteps()).toHaveText([/Oczekuje/, /W kolejce · nadano numer FV\//, /Wysyłanie/, /Zaakceptowana/]);
    await expect(invoices.timeline().filter({ hasText: 'Wygenerowano PDF' })).toHaveCount(1, { timeout: 60_000 });
    await expect(invoices.ksefNumber()).toHaveText(/^\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}$/);
    // the page as first served, before any script runs, holds the document's facts and its timeline
    const number = (await invoices.number().textContent())!;
    expect(number).toMatch(/^FV\/\d{4}\/\d{2}\/1$/);
    const html = await (await page.request.get(page.url())).text();
    expect(html).toContain(`data-testid="document-number">${number}</dd>`);
    expect(html).toContain(`nadano numer ${number}`);
    await expect(invoices.pdfLink()).toBeVisible({ timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), invoices.pdfLink().click()]);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const [xml] = await Promise.all([page.waitForEvent('download'), invoices.xmlLink().click()]);
    expect((await readFile((await xml.path())!)).toString()).toContain('<Faktura');
    await expect(invoices.upoLink()).toBeVisible();
    await expect(page.getByText('invoice.accepted').first()).toBeVisible();
    await snap(page, info, 'invoice-detail');
  });

  await test.step('create a correction returning one mug', async () => {
    await invoices.returnQuantity('Kubek ceramiczny').fill('1');
    await invoices.createCorrection().click();
    await expect(page).toHaveURL(/\/dashboard\/invoices\/cor_/);
    await expect(dashboard.heading(/Korekta/)).toBeVisible();
    await expect(page.locator('h1 [data-status]')).toHaveAttribute('data-status', 'accepted', { timeout: 60_000 });
    await snap(page, info, 'correction-detail');
    await page.getByRole('link', { name: invoiceId }).click();
    await expect(invoices.corrections()).toHaveCount(1);
  });

  await test.step('see the webhook deliveries in the log and resend one', async () => {
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(receiver.received[0]!.headers['ksef-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await dashboard.nav('Webhooki').click();
    await webhooks.endpoint(receiver.url).click();
    await expect(webhooks.deliveries().filter({ hasText: 'invoice.accepted' })).toHaveCount(1);
    await expect(webhooks.deliveries().filter({ hasText: 'correction.accepted' })).toHaveCount(1);
    await expect(webhooks.deliveries().filter({ hasText: 'dostarczono 200' })).toHaveCount(2);
    const before = receiver.received.length;
    await webhooks.resend().first().click();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(before + 1);
    await expect(webhooks.deliveries().filter({ hasText: 'dostarczono 200' })).toHaveCount(3);
    await snap(page, info, 'webhook-log');
  });

  await test.step('API keys: the key has been used; create and revoke one', async () => {
    await dashboard.nav('Klucze API').click();
    const rows = page.getByRole('table', { name: 'Klucze API' }).getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).not.toContainText('nigdy');
    await page.getByRole('button', { name: 'Utwórz klucz' }).click();
    await expect(dashboard.secret()).toHaveText(/^sk_test_/);
    await expect(rows).toHaveCount(3);
    page.once('dialog', (d) => void d.accept());
    await rows.nth(1).getByRole('button', { name: 'Unieważnij' }).click();
    await expect(rows).toHaveCount(2);
    await snap(page, info, 'api-keys');
  });

  await test.step('events with a type filter and their JSON', async () => {
    await dashboard.nav('Zdarzenia').click();
    const events = page.getByRole('list', { name: 'Zdarzenia' }).getByRole('listitem');
    await expect(events).toHaveCount(2);
    await page.getByLabel('Typ').selectOption('correction.accepted');
    await expect(events).toHaveCount(1);
    await events.first().locator('summary').click();
    await expect(events.first().locator('pre')).toContainText('"type": "correction.accepted"');
    await snap(page, info, 'events');
  });

  await test.step('overview: checklist done, counts and the chart', async () => {
    await dashboard.nav('Przegląd').click();
    await expect(dashboard.checklist().filter({ hasText: 'gotowe' })).toHaveCount(5);
    await expect(page.getByTestId('count-accepted')).toHaveText('2');
    await expect(page.getByRole('img', { name: /Wykres słupkowy/ })).toBeVisible();
    await snap(page, info, 'overview');
  });

  await test.step('live mode shows early access; English UI', async () => {
    await page.getByRole('button', { name: /Produkcyjny/ }).click();
    await expect(dashboard.heading('Tryb produkcyjny: wczesny dostęp')).toBeVisible();
    await snap(page, info, 'live-early-access');
    await page.getByRole('button', { name: 'Testowy' }).click();
    await dashboard.language().selectOption('en');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await snap(page, info, 'overview-en');
    await dashboard.language().selectOption('pl');
    await expect(dashboard.heading('Przegląd')).toBeVisible();
  });

  await test.step('every page at 390 px and 1280 px', async () => {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of [...PAGES, `/dashboard/invoices/${invoiceId}`]) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        // the elements sticking out name the culprit when the page scrolls sideways
        const sticking = await page.evaluate(() => {
          const root = document.documentElement;
          if (root.scrollWidth <= root.clientWidth) return [];
          return [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1 && el.parentElement?.closest('.table-wrap, .nav ul, pre') == null)
            .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`);
        });
        expect(sticking, `${path} scrolls sideways at ${width} px`).toEqual([]);
        await snap(
          page,
          info,
          path
            .replace(/^\/dashboard\/?/, 'page-')
            .replace(/\//g, '-')
            .replace(/-$/, '') || 'page',
        );
      }
    }
  });

  await test.step('sign out and back in', async () => {
    await dashboard.signOut().click();
    await expect(page).toHaveURL(/\/signin/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/signin/);
    await auth.email().fill(email);
    await auth.password().fill('wrong password!');
    await auth.signIn().click();
    await expect(page.getByText('Nieprawidłowy e-mail lub hasło.')).toBeVisible();
    await auth.password().fill(password);
    await auth.signIn().click();
    await expect(dashboard.heading('Przegląd')).toBeVisible();
    await snap(page, info, 'signin-again');
  });
});
