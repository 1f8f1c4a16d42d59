import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { AppError } from '@/server/errors';
import { v1Routes, setRouteDb, type Endpoint } from './route';
import { parseParams } from './validate';

const t = useTestDatabase();

const ZThing = z.object({ thing: z.object({ name: z.string().min(1), amount: z.string().regex(/^\d+\.\d{2}$/) }) });

/** A POST endpoint that records each execution, so a test can count how often the handler really ran. */
const createThing: Endpoint<z.infer<typeof ZThing>> = {
  input: ({ body }) => parseParams(ZThing, body),
  idempotent: { replayStatus: 200 },
  handle: async ({ db, input }) => {
    await new Promise((r) => setTimeout(r, 50));
    const [row] = await db.execute<{ n: number }>(
      sql`insert into executions (name) values (${input.thing.name}) returning (select count(*)::int + 1 from executions) as n`,
    );
    if (input.thing.name === 'boom') throw new Error('handler crashed');
    if (input.thing.name === 'bad') throw new AppError('order_unprocessable', 'thing.name', 'bad thing');
    return { status: 201, body: { n: row?.n, name: input.thing.name } };
  },
};
const routes = v1Routes({ POST: createThing });
let key = '';
let otherKey = '';

const call = (body: string, headers: Record<string, string> = {}, k = key) =>
  routes.POST(
    new Request('http://test/v1/things', { method: 'POST', body, headers: { Authorization: `Bearer ${k}`, 'Content-Type': 'application/json', ...headers } }),
    { params: Promise.resolve({}) },
  );
const executions = async () => (await t.db().execute<{ n: number }>(sql`select count(*)::int as n from executions`))[0]!.n;

beforeAll(async () => {
  setRouteDb(() => t.db());
  await t.db().execute(sql`create table executions (id serial primary key, name text)`);
  key = (await createTestAccount(t.db())).testKey;
  otherKey = (await createTestAccount(t.db())).testKey;
});

describe('validation', () => {
  test.each([
    ['{}', 'parameter_missing', 'thing'],
    ['{"thing":{"amount":"1.00"}}', 'parameter_missing', 'thing.name'],
    ['{"thing":{"name":"x","amount":12.3}}', 'parameter_invalid', 'thing.amount'],
    ['{"thing":{"name":"x","amount":"12.345"}}', 'parameter_invalid', 'thing.amount'],
  ])('%s gives %s at %s and runs nothing', async (body, code, param) => {
    const before = await executions();
    const res = await call(body);
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error).toMatchObject({ code, param, type: 'invalid_request_error' });
    expect(error.doc_url).toMatch(new RegExp(`/docs/errors#${code}$`));
    expect(await executions()).toBe(before);
  });

  test('a body that is not JSON gives body_invalid_json', async () => {
    const res = await call('{"thing":');
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('body_invalid_json');
  });

  test('an unexpected failure is a 500 internal_error without internals', async () => {
    const res = await call('{"thing":{"name":"boom","amount":"1.00"}}');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text).error).toMatchObject({ code: 'internal_error', type: 'api_error' });
    expect(text).not.toContain('handler crashed');
  });
});

describe('Idempotency-Key', () => {
  const body = '{"thing":{"name":"idem","amount":"1.00"}}';

  test('the same request replays the first response with 200 and runs once', async () => {
    const before = await executions();
    const first = await call(body, { 'Idempotency-Key': 'k-replay' });
    const second = await call(body, { 'Idempotency-Key': 'k-replay' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(await first.json());
    expect(await executions()).toBe(before + 1);
    const [kept] = await t.db().execute<{ response_body: string }>(sql`select response_body from idempotency_keys where key = 'k-replay'`);
    expect(kept!.response_body).not.toContain('idem'); // sealed: a kept answer may carry a webhook secret
  });

  test('another request under the same key gives 409 idempotency_key_reused', async () => {
    await call(body, { 'Idempotency-Key': 'k-reuse' });
    const res = await call('{"thing":{"name":"other","amount":"1.00"}}', { 'Idempotency-Key': 'k-reuse' });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatchObject({ code: 'idempotency_key_reused', type: 'idempotency_error' });
  });

  test.each([[''], ['x'.repeat(256)], ['tab\there'], ['del\x7f']])('key %j is idempotency_key_invalid', async (k) => {
    const res = await call(body, { 'Idempotency-Key': k });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'idempotency_key_invalid', type: 'idempotency_error' });
  });

  test('concurrent requests with one key never both execute', async () => {
    const before = await executions();
    const answers = await Promise.all(Array.from({ length: 10 }, () => call('{"thing":{"name":"race","amount":"1.00"}}', { 'Idempotency-Key': 'k-race' })));
    expect(await executions()).toBe(before + 1);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(9);
  });

  test('keys are scoped to the account: another account may use the same key', async () => {
    await call(body, { 'Idempotency-Key': 'k-scope' });
    const res = await call('{"thing":{"name":"mine","amount":"1.00"}}', { 'Idempotency-Key': 'k-scope' }, otherKey);
    expect(res.status).toBe(201);
  });

  test('a request that failed with a 500 is run again on retry', async () => {
    const crash = '{"thing":{"name":"boom","amount":"1.00"}}';
    expect((await call(crash, { 'Idempotency-Key': 'k-500' })).status).toBe(500);
    const before = await executions();
    expect((await call(crash, { 'Idempotency-Key': 'k-500' })).status).toBe(500);
    expect(await executions()).toBe(before + 1);
  });

  test('a 4xx outcome is kept and replayed', async () => {
    const bad = '{"thing":{"name":"bad","amount":"1.00"}}';
    const first = await call(bad, { 'Idempotency-Key': 'k-422' });
    const before = await executions();
    const second = await call(bad, { 'Idempotency-Key': 'k-422' });
    expect(first.status).toBe(422);
    expect((await second.json()).error.code).toBe('order_unprocessable');
    expect(await executions()).toBe(before);
  });

  test('keys older than 24 hours are purged', async () => {
    const { purgeIdempotencyKeys } = await import('./idempotency');
    await call(body, { 'Idempotency-Key': 'k-old' });
    await t.db().execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'k-old'`);
    expect(await purgeIdempotencyKeys(t.db())).toBeGreaterThanOrEqual(1);
    const left = await t.db().execute(sql`select 1 from idempotency_keys where key = 'k-old'`);
    expect(left).toHaveLength(0);
  });
});

test('other methods answer 405 method_not_allowed with Allow', async () => {
  const res = await routes.DELETE(new Request('http://test/v1/things', { method: 'DELETE' }), { params: Promise.resolve({}) });
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('POST');
  expect(res.headers.get('request-id')).toMatch(/^req_/);
  expect((await res.json()).error.code).toBe('method_not_allowed');
});

describe('body limit', () => {
  test('a declared length above 1 MB is refused with 413 body_too_large', async () => {
    const res = await call('x', { 'Content-Length': String(1_000_001) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('body_too_large');
  });

  test('a 50 MB streamed body is cut off just past 1 MB, never read whole', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(32);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 50 * 1024 * 1024) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const req = new Request('http://test/v1/things', {
      method: 'POST',
      body: stream,
      headers: { Authorization: `Bearer ${key}` },
      duplex: 'half',
    } as RequestInit);
    const res = await routes.POST(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(2 * 1024 * 1024);
  });
});
