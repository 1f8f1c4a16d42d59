import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkWebhookSignature } from '@/sdk/src/index';
import { DELIVERY_TIMEOUT_MS, sendWebhook, USER_AGENT } from './send-webhook';

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };

const received: Received[] = [];
let connections = 0;
let base = '';
let server: http.Server;
const SECRET = 'whsec_send_test';
const BODY = '{"id":"evt_send1","object":"event","type":"invoice.accepted","data":{"object":{"buyer":"Żółć sp. z o.o."}}}';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/ok') return res.writeHead(200, { 'Content-Type': 'text/plain' }).end('thanks');
      if (req.url === '/fail') return res.writeHead(503).end('x'.repeat(5000));
      if (req.url === '/redirect') return res.writeHead(302, { Location: '/ok' }).end();
      if (req.url === '/hang') return; // never answers
      res.writeHead(404).end();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const lastTo = (path: string) => received.filter((r) => r.path === path).at(-1);

describe('sendWebhook', () => {
  test('POSTs the exact body with a signature the SDK verifies and the spec 6.2 headers', async () => {
    const result = await sendWebhook(`${base}/ok`, 'evt_send1', BODY, SECRET, { mode: 'test', isPublic: () => true });
    expect(result).toMatchObject({ delivered: true, statusCode: 200, responseBody: 'thanks', error: null });
    const got = lastTo('/ok')!;
    expect(got.body).toBe(BODY);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['ksef-event-id']).toBe('evt_send1');
    expect(got.headers['user-agent']).toBe(USER_AGENT);
    const signature = String(got.headers['ksef-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(checkWebhookSignature(got.body, signature, SECRET)).toMatchObject({ ok: true });
    expect(checkWebhookSignature(got.body, signature, 'whsec_other')).toEqual({ ok: false, reason: 'no_matching_signature' });
  });

  test('a non-2xx answer is not delivered and keeps the first kilobyte of the answer', async () => {
    const result = await sendWebhook(`${base}/fail`, 'evt_send2', BODY, SECRET, { mode: 'test', isPublic: () => true });
    expect(result).toMatchObject({ delivered: false, statusCode: 503, error: 'answered 503' });
    expect(result.responseBody).toBe('x'.repeat(1024));
  });

  test('the answer of a receiver on a non-public address is never kept, and without the operator switch it is not reached', async () => {
    const allowed = await sendWebhook(`${base}/ok`, 'evt_send8', BODY, SECRET, { mode: 'test', allowPrivate: true });
    expect(allowed).toMatchObject({ delivered: true, statusCode: 200, responseBody: null });
    const before = received.length;
    const refused = await sendWebhook(`${base}/ok`, 'evt_send9', BODY, SECRET, { mode: 'test', allowPrivate: false });
    expect(refused).toMatchObject({ delivered: false, statusCode: null, responseBody: null });
    expect(refused.error).toMatch(/^refused: .* is not a public address$/);
    const byName = await sendWebhook(`${base.replace('127.0.0.1', 'localhost')}/ok`, 'evt_send10', BODY, SECRET, { mode: 'test', allowPrivate: false });
    expect(byName.error).toMatch(/^refused: localhost resolves to .*not a public address$/);
    expect(received.length).toBe(before);
  });

  test('a redirect is reported, not followed', async () => {
    const before = received.filter((r) => r.path === '/ok').length;
    const result = await sendWebhook(`${base}/redirect`, 'evt_send3', BODY, SECRET, { mode: 'test' });
    expect(result).toMatchObject({ delivered: false, statusCode: 302, error: 'redirect to /ok not followed' });
    expect(received.filter((r) => r.path === '/ok')).toHaveLength(before);
  });

  test('a receiver that does not answer fails at the time-out', async () => {
    const result = await sendWebhook(`${base}/hang`, 'evt_send4', BODY, SECRET, { mode: 'test', timeoutMs: 300 });
    expect(result).toMatchObject({ delivered: false, statusCode: null, error: 'timed out after 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(295);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  test('the production time-out is 10 seconds', { timeout: 20_000 }, async () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
    const result = await sendWebhook(`${base}/hang`, 'evt_send5', BODY, SECRET, { mode: 'test' });
    expect(result.error).toBe('timed out after 10000 ms');
    expect(result.durationMs).toBeGreaterThanOrEqual(9_990);
    expect(result.durationMs).toBeLessThan(11_000);
  });

  test('a refused connection is a failed attempt with the cause', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const result = await sendWebhook(`http://127.0.0.1:${port}/`, 'evt_send6', BODY, SECRET, { mode: 'test' });
    expect(result).toMatchObject({ delivered: false, statusCode: null });
    expect(result.error).toMatch(/^ECONNREFUSED/);
  });

  test.each([
    ['http scheme', () => `${base}/ok`, 'refused: live-mode endpoints must use https'],
    ['loopback literal', () => base.replace('http:', 'https:') + '/ok', 'refused: 127.0.0.1 is not a public address'],
    [
      'host name resolving to loopback',
      () => `https://localhost:${new URL(base).port}/ok`,
      /^refused: localhost resolves to (127\.0\.0\.1|::1), not a public address$/,
    ],
  ])('live mode refuses a %s without connecting', async (_name, url, error) => {
    const before = connections;
    const result = await sendWebhook(url(), 'evt_send7', BODY, SECRET, { mode: 'live' });
    expect(result.delivered).toBe(false);
    expect(result.error).toMatch(error);
    expect(connections).toBe(before);
  });
});
