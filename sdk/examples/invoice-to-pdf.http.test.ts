import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorker } from '@/test/pipeline';
import { startWeb, type RunningProcess } from '@/test/web';
import { isKsefRelayError, KsefRelay, KsefRelayError, type OrderInput } from '../src/index.js';
import { invoiceToPdf } from './invoice-to-pdf';

/** The README's example and the client's promises, against the real server, KSeF emulator and worker. */
const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url, { tasks: '-mail_send' });
let web: RunningProcess;
let relay: KsefRelay;
let key = '';

beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url(), KSEF_TEST_BASE_URL: ksef.url() });
  const acct = await createTestAccount(t.db());
  await ksef.connect(t.db(), acct.testScope, VALID_SELLER.nip);
  key = acct.testKey;
  relay = new KsefRelay({ apiKey: key, baseUrl: web.url, retryDelayMs: 50 });
}, 60_000);
afterAll(() => web?.stop());

const order = () => paidOrder({ buyer: { ...paidOrder().buyer, email: null } }) as OrderInput;

describe('sdk README example', () => {
  test('create invoice → accepted (polling every 3 s) → the PDF', async () => {
    const { invoice, pdf } = await invoiceToPdf(relay, order(), 3_000);
    expect(invoice).toMatchObject({ object: 'invoice', status: 'accepted' });
    expect(invoice.ksef_number).toBeTruthy();
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);
});

describe('client', () => {
  test('typed errors by code', async () => {
    const err = await relay.invoices.retrieve('inv_doesnotexist').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KsefRelayError);
    expect(isKsefRelayError(err, 'resource_missing')).toBe(true);
    expect(err).toMatchObject({ status: 404, code: 'resource_missing', type: 'not_found_error' });
    expect((err as KsefRelayError).requestId).toMatch(/^req_/);
    const bad = await new KsefRelay({ apiKey: 'sk_test_wrongwrongwrongwrong', baseUrl: web.url }).account.retrieve().catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 401, code: 'api_key_invalid' });
  });

  test('a create whose answer was lost is retried under the same Idempotency-Key: one invoice', async () => {
    let calls = 0;
    const keys: (string | null)[] = [];
    const flaky: typeof fetch = async (input, init) => {
      calls++;
      keys.push(new Headers(init?.headers).get('idempotency-key'));
      const res = await fetch(input, init);
      if (calls === 1) throw new TypeError('fetch failed (connection reset)'); // the server did the work, the answer is lost
      return res;
    };
    const client = new KsefRelay({ apiKey: key, baseUrl: web.url, fetch: flaky, retryDelayMs: 10 });
    const o = order();
    const invoice = await client.invoices.create({ order: o });
    expect(calls).toBe(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    const found = await relay.invoices.list({ external_id: o.external_id });
    expect(found.data.map((i) => i.id)).toEqual([invoice.id]);
  });

  test('5xx answers are retried, then surface as a typed error', async () => {
    let calls = 0;
    const failing: typeof fetch = async () => {
      calls++;
      return Response.json({ error: { type: 'api_error', code: 'internal_error', message: 'x', doc_url: '' } }, { status: 503 });
    };
    const err = await new KsefRelay({ apiKey: key, baseUrl: web.url, fetch: failing, maxRetries: 2, retryDelayMs: 1 }).account
      .retrieve()
      .catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(err).toMatchObject({ status: 503, code: 'internal_error' });
  });

  test('listAll pages through every invoice, newest first, without gaps', async () => {
    const client = new KsefRelay({ apiKey: (await createTestAccount(t.db())).testKey, baseUrl: web.url });
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await client.invoices.create({ order: order() })).id);
    const seen: string[] = [];
    for await (const inv of client.invoices.listAll({ limit: 3 })) seen.push(inv.id);
    expect(seen).toEqual([...made].reverse());
  });
});
