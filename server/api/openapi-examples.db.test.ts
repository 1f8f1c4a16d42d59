import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accountModes } from '@/server/db/schema';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { startWeb, waitFor, type RunningProcess } from '@/test/web';
import { KsefRelay } from '@/sdk/src/index';
import { OPERATIONS, type Operation } from './openapi';
import {
  ACCOUNT_EXAMPLE,
  CORRECTION_ACCEPTED,
  CORRECTION_ID,
  ENDPOINT_ID,
  INVOICE_ACCEPTED,
  INVOICE_ID,
  INVOICE_RETRIED,
  ORDER_EXAMPLE,
  RETRIED_ID,
} from './openapi-examples';

/**
 * The reference's promise, kept against a real server, worker and KSeF emulator: each operation's request example
 * (body, query, Idempotency-Key as documented; path ids swapped for the ids the earlier examples created) gets
 * the documented status, and its answer validates against the documented schema (the api client checks every
 * answer against the OpenAPI document). The SDK sample's call is made too, and its answer parsed with the same
 * schema. The examples tell one story, so they run in its order.
 */
const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url, { tasks: '-mail_send' });
let web: RunningProcess;
let api: ReturnType<typeof apiClient>;
let relay: KsefRelay;
let accountId: string;
/** Example id → the id the server gave the resource the example created. */
const ids = new Map<string, string>();

const seller = ACCOUNT_EXAMPLE.seller;

beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url(), KSEF_TEST_BASE_URL: ksef.url() });
  const acct = await createTestAccount(t.db(), {
    seller: { nip: seller.nip!, name: seller.name!, address1: seller.address_line1!, address2: seller.address_line2! },
  });
  await ksef.connect(t.db(), acct.testScope, seller.nip!);
  accountId = acct.accountId;
  api = apiClient(web.url, acct.testKey);
  relay = new KsefRelay({ apiKey: acct.testKey, baseUrl: web.url, retryDelayMs: 50 });
}, 60_000);
afterAll(() => web?.stop());

const operation = (id: string): Operation => OPERATIONS.find((op) => op.operationId === id)!;

/** The operation's example over HTTP; the answer's status must be the first (documented success) response. */
async function sendExample(operationId: string) {
  const op = operation(operationId);
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => ids.get(op.example.path![name]!)!);
  const query = new URLSearchParams(Object.entries(op.example.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
  const headers: Record<string, string> = op.example.idempotencyKey ? { 'Idempotency-Key': op.example.idempotencyKey } : {};
  const res = await api.request(op.method.toUpperCase(), `${path}${query ? `?${query}` : ''}`, op.example.body, headers);
  expect(res.status, `${operationId}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(op.responses[0]!.status);
  return res;
}

/** The SDK sample's call with the example's arguments; a JSON answer is parsed with a documented schema of the operation. */
async function callSdk(operationId: string) {
  const op = operation(operationId);
  const args = [
    ...Object.values(op.example.path ?? {}).map((id) => ids.get(id)),
    ...(op.example.body !== undefined ? [op.example.body] : []),
    ...(op.example.query ? [op.example.query] : []),
    ...(op.example.idempotencyKey ? [{ idempotencyKey: op.example.idempotencyKey }] : []),
  ];
  const [group, method] = op.sdk.method.split('.') as [string, string];
  const fn = (relay as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[group]![method]!;
  let result = await fn(...args);
  // a streamed download (the monthly archive) is read to its end
  if (result instanceof ReadableStream) result = new Uint8Array(await new Response(result).arrayBuffer());
  const schemas = op.responses.flatMap((r) => ('schema' in r ? [r.schema] : []));
  if (schemas.length)
    expect(
      schemas.some((s) => s.safeParse(result).success),
      `${operationId} via the SDK`,
    ).toBe(true);
  else expect(result).toBeInstanceOf(Uint8Array);
  return result;
}

const covered = new Set<string>();
async function both(operationId: string) {
  covered.add(operationId);
  const res = await sendExample(operationId);
  await callSdk(operationId);
  return res;
}

describe('every request example of /openapi.json against the real server', () => {
  test('account', async () => {
    const res = await both('retrieveAccount');
    expect(res.body).toMatchObject({ seller: ACCOUNT_EXAMPLE.seller, seller_configured: true });
  });

  test('the order becomes an accepted invoice with the documented total, and its PDF, XML and UPO download', async () => {
    const created = await both('createInvoice');
    ids.set(INVOICE_ID, created.body.id);
    await waitForStatus(t.db(), created.body.id, ['accepted'], 30_000);
    await waitFor(async () => (await api.get(`/v1/invoices/${created.body.id}/pdf`)).status === 200, 30_000);
    const res = await both('retrieveInvoice');
    const { currency, total_gross, buyer_nip } = INVOICE_ACCEPTED;
    expect(res.body).toMatchObject({ status: 'accepted', currency, total_gross, buyer_nip });
    expect(res.body.number).toMatch(/^FV\/2026\/\d{2}\/\d+$/);
    for (const [id, type] of [
      ['downloadInvoicePdf', 'application/pdf'],
      ['downloadInvoiceXml', 'application/xml'],
      ['downloadInvoiceUpo', 'application/xml'],
    ] as const) {
      const file = await both(id);
      expect(file.headers.get('content-type')).toContain(type);
    }
  }, 60_000);

  test('the refund becomes an accepted correction of the documented amount; the list and events show them', async () => {
    const created = await both('createCorrection');
    ids.set(CORRECTION_ID, created.body.id);
    await waitForStatus(t.db(), created.body.id, ['accepted'], 30_000);
    const invoices = await both('listInvoices');
    expect(invoices.body.data).toHaveLength(1);
    expect(invoices.body.data[0].corrections).toMatchObject([{ id: created.body.id, total_gross: CORRECTION_ACCEPTED.total_gross }]);
    const events = await both('listEvents');
    expect(events.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toContain(ids.get(INVOICE_ID));
  }, 60_000);

  test('webhook endpoint: create, retrieve, list, delete', async () => {
    const created = await both('createWebhookEndpoint');
    ids.set(ENDPOINT_ID, created.body.id);
    await both('retrieveWebhookEndpoint');
    await both('listWebhookEndpoints');
    await both('deleteWebhookEndpoint');
  });

  test('an order placed while the seller NIP was mistyped is skipped without a number, then retried once it is fixed', async () => {
    const setNip = (nip: string) => t.db().update(accountModes).set({ sellerNip: nip }).where(eq(accountModes.accountId, accountId));
    await setNip('5265877636'); // a wrong check digit, as an older CLI could store it
    const order = { ...ORDER_EXAMPLE, external_id: INVOICE_RETRIED.order.external_id, number: '10246' };
    const created = await api.post('/v1/invoices', { order });
    ids.set(RETRIED_ID, created.body.id);
    expect(await waitForStatus(t.db(), created.body.id, ['skipped'], 30_000)).toMatchObject({ number: null });
    await setNip(seller.nip!);
    const res = await both('retryInvoice'); // the SDK's call replays the first answer (same Idempotency-Key)
    expect(res.body).toMatchObject({ status: 'pending', order: INVOICE_RETRIED.order });
    await waitForStatus(t.db(), created.body.id, ['accepted'], 30_000);
  }, 60_000);

  test('the month of the story exports its sales register and archive', async () => {
    const register = await both('exportSalesRegister');
    expect(register.headers.get('content-type')).toContain('text/csv');
    const archive = await both('exportMonthlyArchive');
    expect(archive.headers.get('content-type')).toContain('application/zip');
  });

  test('covered every operation of the document', () => {
    expect([...covered].sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
  });
});
