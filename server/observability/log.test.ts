import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addLogContext, log, pathOnly, redactLogObject, setLogDestination, withLogContext } from './log';

const lines: Record<string, any>[] = [];
beforeAll(() =>
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    }),
  ),
);
afterAll(() => setLogDestination(undefined));

test('every line inside a context carries its ids; nested contexts add to them and do not leak out', async () => {
  lines.length = 0;
  await withLogContext({ requestId: 'req_1' }, async () => {
    addLogContext({ accountId: 'acct_1', mode: 'live' });
    await withLogContext({ documentId: 'inv_1', jobId: '42' }, async () => log.info({ step: 'inner' }, 'a'));
    log.info({}, 'b');
  });
  log.info({}, 'c');
  expect(lines.map((l) => [l.msg, l.requestId, l.accountId, l.mode, l.documentId, l.jobId])).toEqual([
    ['a', 'req_1', 'acct_1', 'live', 'inv_1', '42'],
    ['b', 'req_1', 'acct_1', 'live', undefined, undefined],
    ['c', undefined, undefined, undefined, undefined, undefined],
  ]);
});

test('secrets and buyer data are redacted wherever they sit in a logged object', () => {
  lines.length = 0;
  log.warn(
    {
      token: 'ksef-token-value',
      authorization: 'Bearer sk_live_abcdefabcdefabcdef',
      credential: { password: 'p4ss', privateKeyPem: '-----BEGIN' },
      order: { buyer: { name: 'Jan Kowalski', email: 'jan@example.com' }, external_id: '1001' },
      documentId: 'inv_7',
    },
    'x',
  );
  const text = JSON.stringify(lines[0]);
  for (const secret of ['ksef-token-value', 'sk_live_', 'p4ss', 'BEGIN', 'Jan Kowalski', 'jan@example.com']) expect(text).not.toContain(secret);
  expect(lines[0]).toMatchObject({ level: 'warn', documentId: 'inv_7', order: { external_id: '1001' } });
});

test('secrets inside errors, their causes and arrays are redacted; the error keeps its type, message and stack', () => {
  lines.length = 0;
  const cause = Object.assign(new Error('KSeF said no'), { token: 'cause-token' });
  const err = Object.assign(new TypeError('send failed', { cause }), { request: { authorization: 'Bearer sk_test_zzzzzzzz' } });
  log.error({ err, attempts: [{ secret: 'whsec_abc' }, { ok: 1 }] }, 'y');
  const text = JSON.stringify(lines[0]);
  for (const secret of ['cause-token', 'sk_test_', 'whsec_abc']) expect(text).not.toContain(secret);
  expect(lines[0]).toMatchObject({ err: { type: 'TypeError' }, attempts: [{}, { ok: 1 }] });
  expect(lines[0]!.err.message).toContain('send failed');
  expect(lines[0]!.err.stack).toContain('send failed');
});

test("redaction copies only what it censors and never changes the caller's objects", () => {
  const order = { buyer: { email: 'jan@example.com' }, lines: [{ name: 'Kubek' }] };
  const plain = { method: 'GET', route: '/v1/account', status: 200 };
  const logged = redactLogObject({ ...order, plain });
  expect(logged).toEqual({ buyer: '[redacted]', lines: [{ name: '[redacted]' }], plain });
  expect(logged.plain).toBe(plain);
  expect(order).toEqual({ buyer: { email: 'jan@example.com' }, lines: [{ name: 'Kubek' }] });
  expect(redactLogObject(plain)).toBe(plain);
});

test('URLs are logged without their query string', () => {
  expect(pathOnly('https://api.ksef.mf.gov.pl/v2/sessions?nip=5260250274&email=a@b.pl')).toBe('/v2/sessions');
  expect(pathOnly('/v1/invoices?external_id=1')).toBe('/v1/invoices');
});
