import { randomBytes } from 'node:crypto';
import { wooControl } from '@/emulators/woocommerce/control-client';
import { expect, snap, test } from './fixtures';

test('a merchant connects a WooCommerce store from the dashboard and a paid B2B order becomes an invoice', async ({
  page,
  auth,
  dashboard,
  seller,
  ksef,
  invoices,
  store,
}, info) => {
  const shop = wooControl(process.env.E2E_WOO_URL!);

  await test.step('sign up, seller data, KSeF test credentials', async () => {
    await page.goto('/signup');
    await auth.email().fill(`e2e-store-${randomBytes(4).toString('hex')}@example.test`);
    await auth.password().fill('correct horse battery');
    await auth.signUp().click();
    await auth.continue().click();
    await dashboard.nav('Dane sprzedawcy').click();
    // not the newcomer's NIP: both specs share one KSeF emulator, which refuses a second FV/…/1 of a seller (440)
    await seller.nip().fill('727-002-59-30');
    await seller.name().fill('Kawowy Świat sp. z o.o.');
    await seller.address1().fill('ul. Piotrkowska 1');
    await seller.address2().fill('90-001 Łódź');
    await seller.save().click();
    await expect(seller.state()).toHaveText('Dane sprzedawcy są kompletne.');
    await dashboard.nav('Połączenie z KSeF').click();
    await ksef.createTestCredentials().click();
    await expect(ksef.state()).toHaveText('Połączono z KSeF');
  });

  await test.step('a read-only key is refused with the reason; a read/write key connects and registers two webhooks', async () => {
    await dashboard.nav('Sklep').click();
    await expect(dashboard.heading('Sklep WooCommerce')).toBeVisible();
    const readOnly = await shop.createKey('read');
    await store.url().fill(process.env.E2E_WOO_URL!);
    await store.consumerKey().fill(readOnly.consumer_key);
    await store.consumerSecret().fill(readOnly.consumer_secret);
    await store.connect().click();
    await expect(page.getByText('Klucz REST nie ma uprawnień do zapisu.')).toBeVisible();
    const key = await shop.createKey();
    await store.consumerKey().fill(key.consumer_key);
    await store.consumerSecret().fill(key.consumer_secret);
    await store.connect().click();
    await expect(store.storeUrl()).toHaveText(`${process.env.E2E_WOO_URL}/`);
    await expect(store.webhooks().filter({ hasText: 'aktywny' })).toHaveCount(2);
    await snap(page, info, 'store-connected');
  });

  await test.step('a paid B2B order placed in the shop appears on the invoices page as accepted; a B2C one is counted as skipped', async () => {
    const order = await shop.createOrder({ nip: '386-161-02-27', paid: true });
    await shop.createOrder({ paid: true });
    await dashboard.nav('Faktury').click();
    const row = invoices.row(String(order.id));
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'accepted', { timeout: 60_000 });
    await snap(page, info, 'store-invoices');
    await dashboard.nav('Sklep').click();
    await expect(store.lastEvent()).not.toHaveText('nigdy');
    await expect(store.skippedCounts()).toContainText('brak NIP-u nabywcy (zamówienie konsumenckie): 1');
    await expect.poll(async () => (await shop.order(order.id)).meta_data.some((m) => m.key === '_ksef_number'), { timeout: 30_000 }).toBe(true);
    await snap(page, info, 'store-status');
  });
});
