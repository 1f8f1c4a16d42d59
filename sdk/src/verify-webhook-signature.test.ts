import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { checkWebhookSignature, verifyWebhookSignature } from './verify-webhook-signature.js';

const SECRET = 'whsec_5fJx0sdk';
const BODY = '{"id":"evt_2","type":"invoice.rejected","data":{"object":{"number":"FV/2026/06/0042"}}}';
const T = 1_780_000_000;
const hmac = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
const header = (t = T, secret = SECRET, body = BODY) => `t=${t},v1=${hmac(secret, t, body)}`;

describe('verifyWebhookSignature', () => {
  test('accepts a valid signature over a string or the raw bytes', () => {
    expect(verifyWebhookSignature(BODY, header(), SECRET, 300, T)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(BODY), header(), SECRET, 300, T + 299)).toBe(true);
    expect(checkWebhookSignature(BODY, header(), SECRET, 300, T)).toEqual({ ok: true, timestamp: T });
  });

  test('rejects a tampered body, including re-serialised JSON', () => {
    expect(checkWebhookSignature(BODY.replace('0042', '0043'), header(), SECRET, 300, T)).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(BODY), null, 2), header(), SECRET, 300, T)).toBe(false);
  });

  test('rejects the wrong secret', () => {
    expect(verifyWebhookSignature(BODY, header(T, 'whsec_other'), SECRET, 300, T)).toBe(false);
  });

  test('rejects old and future-skewed timestamps, even with a correct HMAC', () => {
    expect(checkWebhookSignature(BODY, header(), SECRET, 300, T + 301)).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(checkWebhookSignature(BODY, header(), SECRET, 300, T - 301)).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifyWebhookSignature(BODY, header(), SECRET, 60, T + 61)).toBe(false);
  });

  test('uses the clock when no time is given', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhookSignature(BODY, header(now), SECRET)).toBe(true);
    expect(verifyWebhookSignature(BODY, header(now - 600), SECRET)).toBe(false);
  });

  test('accepts any matching v1 among several and ignores other schemes', () => {
    const good = hmac(SECRET, T, BODY);
    const stale = hmac('whsec_previous', T, BODY);
    expect(verifyWebhookSignature(BODY, `t=${T},v1=${stale},v1=${good}`, SECRET, 300, T)).toBe(true);
    expect(verifyWebhookSignature(BODY, `t=${T}, v0=abc, v1=${good}`, SECRET, 300, T)).toBe(true);
    expect(verifyWebhookSignature(BODY, `t=${T},v1=${stale}`, SECRET, 300, T)).toBe(false);
  });

  test.each([
    ['empty', ''],
    ['no t', `v1=${'a'.repeat(64)}`],
    ['no v1', `t=${T}`],
    ['t not a number', `t=soon,v1=${hmac(SECRET, T, BODY)}`],
    ['t twice', `t=${T},t=${T},v1=${hmac(SECRET, T, BODY)}`],
    ['v1 too short', `t=${T},v1=${hmac(SECRET, T, BODY).slice(0, 62)}`],
    ['v1 not hex', `t=${T},v1=${'z'.repeat(64)}`],
    ['no equals sign', `t${T}v1${hmac(SECRET, T, BODY)}`],
  ])('rejects a malformed header: %s', (_, value) => {
    expect(checkWebhookSignature(BODY, value, SECRET, 300, T)).toEqual({ ok: false, reason: 'malformed_header' });
  });
});
