import { expect, snap, test } from './fixtures';

/** Redoc's side menu always asks for the Redocly logo from its CDN; the page's policy blocks it (never fetched). */
const BLOCKED_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

test('the API reference renders OpenAPI 3.1 with examples and curl/SDK samples, with no error and nothing from outside', async ({ page, baseURL }, info) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().includes(`'${BLOCKED_LOGO}' violates the following Content Security Policy`))
      problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!/^(data|blob):/.test(r.url()) && r.url() !== BLOCKED_LOGO && new URL(r.url()).origin !== new URL(baseURL!).origin) outside.push(r.url());
  });

  await page.goto('/docs/api#tag/Invoices/operation/createInvoice');
  // Redoc parses the document and builds its search index in the browser: seconds on a loaded 2-core machine
  await expect(page.getByRole('heading', { name: /KSeF Relay API/ })).toBeVisible({ timeout: 60_000 });
  const operation = page.locator('[id="tag/Invoices/operation/createInvoice"]');
  await expect(operation.getByRole('heading', { name: /Create an invoice from a paid order/ })).toBeVisible();
  // the samples panel: curl and the SDK, made from the request example
  await expect(operation.getByRole('tab', { name: 'curl' })).toBeVisible();
  await expect(operation.getByText('386-161-02-27').first()).toBeAttached();
  await operation.getByRole('tab', { name: 'SDK (TypeScript)' }).click();
  await expect(operation.getByText(/relay\.invoices\.create\(/)).toBeVisible();
  await snap(page, info, 'api-reference');

  // every operation of the document is in the menu
  const doc = (await (await page.request.get('/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
  for (const op of Object.values(doc.paths).flatMap((ops) => Object.values(ops))) {
    await expect(page.locator(`[data-item-id$="operation/${op.operationId}"]`)).toHaveCount(1);
  }
  await expect(page.getByText(/jsonSchemaDialect|not supported|Something went wrong/i)).toHaveCount(0);
  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
});
