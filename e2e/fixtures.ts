import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as base, type Page, type TestInfo } from '@playwright/test';
import { AuthPage, DashboardPage, InvoicesPage, KsefPage, SellerPage, StorePage, WebhooksPage } from './pages/dashboard.page';

export type ReceivedWebhook = { headers: IncomingMessage['headers']; body: string };

/** A webhook receiver on 127.0.0.1 (test mode allows plain http) that records what it is sent. */
async function startReceiver() {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('got it');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/ksef`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The /v1 API as an integration calls it, with the key the dashboard showed once. */
export function apiClient(baseURL: string, key: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseURL}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  return {
    createInvoice: (order: unknown) => call('POST', '/v1/invoices', { order }),
    status: async (id: string) => (await call('GET', `/v1/invoices/${id}`)).json.status as string,
  };
}

/** A full-page screenshot saved under e2e/artifacts/screenshots and attached to the report. */
export async function snap(page: Page, info: TestInfo, name: string) {
  await page.evaluate(() => document.fonts.ready);
  const width = page.viewportSize()?.width ?? 0;
  const path = `e2e/artifacts/screenshots/${name}-${width}.png`;
  await page.screenshot({ path, fullPage: true });
  await info.attach(`${name}-${width}`, { path, contentType: 'image/png' });
}

export const test = base.extend<{
  auth: AuthPage;
  dashboard: DashboardPage;
  seller: SellerPage;
  ksef: KsefPage;
  invoices: InvoicesPage;
  webhooks: WebhooksPage;
  store: StorePage;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
}>({
  auth: async ({ page }, use) => use(new AuthPage(page)),
  dashboard: async ({ page }, use) => use(new DashboardPage(page)),
  seller: async ({ page }, use) => use(new SellerPage(page)),
  ksef: async ({ page }, use) => use(new KsefPage(page)),
  invoices: async ({ page }, use) => use(new InvoicesPage(page)),
  webhooks: async ({ page }, use) => use(new WebhooksPage(page)),
  store: async ({ page }, use) => use(new StorePage(page)),
  receiver: async ({}, use) => {
    const r = await startReceiver();
    await use(r);
    await r.close();
  },
});

export { expect } from '@playwright/test';
