import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiClient, expect, snap, test } from './fixtures';

/** Issue 35: a phone (390 px) and a desktop (1280 px) see every page without sideways scrolling or a blank nav block. */
const WIDTHS = [390, 1280] as const;
/** The phone's nav is one scrolling row of links; taller means it stretched into a blank block. */
const NAV_MAX_PX = 80;

const order = (externalId: string) => ({
  external_id: externalId,
  number: '7',
  paid_at: new Date(Date.now() - 60_000).toISOString(),
  currency: 'PLN',
  payment_method: 'transfer',
  buyer: { nip: '526-025-02-74', name: 'Kupiec z bardzo długą nazwą firmy sp. z o.o. sp. k.', address_line1: 'ul. Długa 5', address_line2: '00-002 Warszawa' },
  lines: [
    { name: 'Kubek ceramiczny z nadrukiem', sku: 'KUB-1', quantity: 2, unit_price: '49.99', vat_rate: '23' },
    { name: 'Książka', sku: 'KS-7', quantity: 1, unit_price: '39.90', vat_rate: '5' },
  ],
});

/** What sticks out past the viewport's right edge when the page scrolls sideways (scrolling boxes excepted). */
async function layoutOf(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const sticking =
      root.scrollWidth <= window.innerWidth
        ? []
        : [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
            // inside a scrolling box only what escapes its clipping counts: an absolutely positioned element
            .filter((el) => el.parentElement?.closest('.table-wrap, .nav ul, pre') == null || getComputedStyle(el).position === 'absolute')
            .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`);
    const nav = document.querySelector('nav.nav')?.getBoundingClientRect();
    const main = document.querySelector('main')?.getBoundingClientRect();
    return { scrollWidth: root.scrollWidth, innerWidth: window.innerWidth, sticking, navHeight: nav?.height ?? null, mainTop: main?.top ?? 0 };
  });
}

/** Visits `path` at `width`: no sideways scrolling, no blank nav block, the content starts in the first screen. */
async function check(page: Page, path: string, width: number) {
  await page.setViewportSize({ width, height: 844 });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const l = await layoutOf(page);
  expect(l.scrollWidth, `${path} scrolls sideways at ${width} px; sticking out: ${l.sticking.join(', ')}`).toBeLessThanOrEqual(l.innerWidth);
  if (l.navHeight !== null && width < 760) expect(l.navHeight, `${path}: the nav at ${width} px`).toBeLessThanOrEqual(NAV_MAX_PX);
  expect(l.mainTop, `${path}: the content starts below the first screen at ${width} px`).toBeLessThan(300);
}

const shotName = (path: string) =>
  `layout-${
    path
      .replace(/^\//, '')
      .replace(/\/(inv|cor|we)_[0-9A-Za-z]+/, '/$1')
      .replace(/\//g, '-') || 'home'
  }`;

test('every page fits a phone (390 px) and a desktop (1280 px)', async ({
  page,
  baseURL,
  auth,
  dashboard,
  seller,
  ksef,
  invoices,
  webhooks,
  receiver,
}, info) => {
  let key = '';
  await test.step('sign up', async () => {
    await page.goto('/signup');
    await auth.email().fill(`e2e-layout-${randomBytes(4).toString('hex')}@example.test`);
    await auth.password().fill('correct horse battery');
    await auth.signUp().click();
    await expect(dashboard.secret()).toBeVisible();
    key = (await dashboard.secret().textContent()) ?? '';
    await auth.continue().click();
    await expect(dashboard.heading('Przegląd')).toBeVisible();
  });

  await test.step('short, empty pages at 390 px: the nav stays one row', async () => {
    for (const path of ['/dashboard/invoices', '/dashboard/events', '/dashboard/api-keys', '/dashboard/webhooks', '/dashboard/exports']) {
      await check(page, path, 390);
      await snap(page, info, `${shotName(path)}-empty`);
    }
  });

  let invoiceId = '';
  let correctionId = '';
  let endpointPath = '';
  await test.step('data: seller, KSeF, a webhook endpoint, an accepted invoice and its correction', async () => {
    await page.setViewportSize({ width: 1280, height: 844 });
    await page.goto('/dashboard/seller');
    // a NIP of its own: the specs share one KSeF emulator, which refuses a second FV/…/1 of a seller
    await seller.nip().fill('123-456-32-18');
    await seller.name().fill('Sklep Szerokości sp. z o.o.');
    await seller.address1().fill('ul. Wąska 2');
    await seller.address2().fill('00-003 Warszawa');
    await seller.save().click();
    await expect(seller.state()).toHaveText('Dane sprzedawcy są kompletne.');
    await dashboard.nav('Połączenie z KSeF').click();
    await ksef.createTestCredentials().click();
    await expect(ksef.state()).toHaveText('Połączono z KSeF');
    await dashboard.nav('Webhooki').click();
    await webhooks.url().fill(receiver.url);
    await webhooks.add().click();
    await webhooks.endpoint(receiver.url).click();
    await expect(page).toHaveURL(/\/dashboard\/webhooks\/we_/);
    endpointPath = new URL(page.url()).pathname;
    const api = apiClient(baseURL!, key);
    const created = await api.createInvoice(order(`layout-${randomBytes(4).toString('hex')}`));
    expect(created.status).toBe(201);
    invoiceId = created.json.id as string;
    await expect.poll(() => api.status(invoiceId), { timeout: 60_000 }).toBe('accepted');
    await page.goto(`/dashboard/invoices/${invoiceId}`);
    await invoices.returnQuantity('Kubek ceramiczny z nadrukiem').fill('1');
    await invoices.createCorrection().click();
    await expect(page).toHaveURL(/\/dashboard\/invoices\/cor_/);
    correctionId = new URL(page.url()).pathname.split('/').pop()!;
    await expect(page.locator('h1 [data-status]')).toHaveAttribute('data-status', 'accepted', { timeout: 60_000 });
  });

  await test.step('every page at both widths, with a screenshot of each', async () => {
    const pages = [
      '/dashboard',
      '/dashboard/invoices',
      `/dashboard/invoices/${invoiceId}`,
      `/dashboard/invoices/${correctionId}`,
      '/dashboard/webhooks',
      endpointPath,
      '/dashboard/api-keys',
      '/dashboard/events',
      '/dashboard/ksef',
      '/dashboard/seller',
      '/dashboard/store',
      '/dashboard/exports',
      '/dashboard/members',
      '/docs/errors',
      '/signin',
      '/signup',
      '/forgot-password',
    ];
    for (const width of WIDTHS) {
      for (const path of pages) {
        await check(page, path, width);
        await snap(page, info, shotName(path));
      }
    }
  });

  await test.step('a check box and a radio button sit right before their words', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [
      ['/dashboard/seller', 'Metoda kasowa'],
      ['/dashboard/ksef', 'Certyfikat i klucz PEM'],
    ] as const) {
      await page.goto(path);
      const control = page.getByLabel(name, { exact: true });
      await expect(control).toBeVisible();
      const gap = await control.evaluate((input) => {
        const label = input.closest('label')!;
        const range = document.createRange();
        range.selectNodeContents(label);
        const words = [...range.getClientRects()].filter((r) => r.left > input.getBoundingClientRect().right - 1);
        const box = input.getBoundingClientRect();
        return { gap: (words[0]?.left ?? Infinity) - box.right, width: box.width };
      });
      expect(gap.width, `${path}: the ${name} control's width`).toBeLessThan(30);
      expect(gap.gap, `${path}: between the ${name} control and its words`).toBeLessThan(16);
    }
  });
});
