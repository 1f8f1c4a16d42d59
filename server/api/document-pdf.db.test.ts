import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { startWeb, type RunningProcess } from '@/test/web';
import { enableLive } from '@/server/accounts/account-settings';
import { documents, files } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { randomToken } from '@/server/ids';
import { parseOrderInput } from '@/server/orders/order-schema';
import { mapShopplatformOrder } from '@/server/orders/woocommerce/map-order';
import { fixtureOrder4817, readFixture } from '@/test/fixtures/wc-payloads';
import { storeDocumentPdf } from '@/server/pdf/store-document-pdf';

const t = useTestDatabase();
let web: RunningProcess;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url() });
  acct = await createTestAccount(t.db());
  api = apiClient(web.url, acct.testKey);
}, 60_000);
afterAll(() => web?.stop());

/** Invoice 4817 of the worked example, accepted by KSeF (the state ksef_status leaves), PDF not rendered yet. */
async function acceptedInvoice(): Promise<string> {
  const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder()));
  await t
    .db()
    .update(documents)
    .set({
      status: 'accepted',
      input: mapShopplatformOrder(fixtureOrder4817()),
      buyerEmail: null,
      number: 'FV/2026/06/0042',
      issueDate: '2026-06-02',
      ksefNumber: '5265877635-20260602-01000016B2C4-ED',
      fa3Xml: readFixture('fa3-vat-pln-order-4817.xml'),
    })
    .where(eq(documents.id, document.id));
  return document.id;
}

const storedPdf = async (id: string) => {
  const [row] = await t
    .db()
    .select({ content: files.content, token: documents.pdfToken })
    .from(documents)
    .innerJoin(files, eq(files.id, documents.pdfFileId))
    .where(eq(documents.id, id));
  return row!;
};

describe('GET /v1/invoices/{id}/pdf', () => {
  test('409 pdf_not_ready until rendered, then the PDF as an attachment named after the number', async () => {
    const id = await acceptedInvoice();
    const early = await api.get(`/v1/invoices/${id}/pdf`);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: 'pdf_not_ready', type: 'invalid_request_error' });
    expect((await api.get(`/v1/invoices/${id}`)).body.pdf_url).toBeNull();

    expect(await storeDocumentPdf(t.db(), id, { mail: 'inline' })).toBe('stored');
    const res = await fetch(`${web.url}/v1/invoices/${id}/pdf`, { headers: { Authorization: `Bearer ${acct.testKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="FV-2026-06-0042.pdf"');
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals((await storedPdf(id)).content)).toBe(true);
  });

  test("needs the key of the document's account and mode", async () => {
    const id = await acceptedInvoice();
    await storeDocumentPdf(t.db(), id, { mail: 'inline' });
    expect((await apiClient(web.url).get(`/v1/invoices/${id}/pdf`)).status).toBe(401);
    const other = await createTestAccount(t.db());
    expect((await apiClient(web.url, other.testKey).get(`/v1/invoices/${id}/pdf`)).body.error.code).toBe('resource_missing');
    await enableLive(t.db(), acct.accountId);
    expect((await apiClient(web.url, acct.liveKey).get(`/v1/invoices/${id}/pdf`)).body.error.code).toBe('resource_missing');
  });
});

describe('GET /d/{token} (pdf_url)', () => {
  test('pdf_url serves the PDF inline without a key, never cached', async () => {
    const id = await acceptedInvoice();
    await storeDocumentPdf(t.db(), id, { mail: 'inline' });
    const { content, token } = await storedPdf(id);
    const pdfUrl = (await api.get(`/v1/invoices/${id}`)).body.pdf_url as string;
    expect(pdfUrl).toBe(`${web.url}/d/${token}`);
    expect(token).toMatch(/^[0-9A-Za-z]{22}$/);

    const res = await fetch(pdfUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="FV-2026-06-0042.pdf"');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
  });

  test('unknown or malformed tokens answer 404', async () => {
    for (const path of [`/d/${randomToken(128)}`, '/d/short', `/d/${'x'.repeat(65)}`, `/d/${randomToken(128)}%2F..`]) {
      const res = await fetch(`${web.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
    }
  });

  test('a link opened before pdf_render ran renders the PDF, stores it under the same token, and pdf_render then keeps it', async () => {
    const id = await acceptedInvoice();
    const token = randomToken(128);
    // the token as acceptance makes it (poll-status.ts), before the worker rendered anything
    await t.db().update(documents).set({ pdfToken: token }).where(eq(documents.id, id));
    expect((await api.get(`/v1/invoices/${id}`)).body.pdf_url).toBe(`${web.url}/d/${token}`);
    const [first, second] = await Promise.all([fetch(`${web.url}/d/${token}`), fetch(`${web.url}/d/${token}`)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.get('content-disposition')).toBe('inline; filename="FV-2026-06-0042.pdf"');
    const body = Buffer.from(await first.arrayBuffer());
    const stored = await storedPdf(id);
    expect(stored.token).toBe(token);
    expect(body.equals(stored.content)).toBe(true);
    expect(Buffer.from(await second.arrayBuffer()).equals(stored.content)).toBe(true);
    expect(await t.db().select({ id: files.id }).from(files).where(eq(files.documentId, id))).toHaveLength(1);
    expect(await storeDocumentPdf(t.db(), id, { mail: 'inline' })).toBe('already_stored');
  });
});
