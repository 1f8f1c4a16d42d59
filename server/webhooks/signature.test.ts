import { describe, expect, test } from 'vitest';
import { verifyWebhookSignature } from '@/sdk/src/index';
import { signatureHeader } from './signature';

const BODY = '{"id":"evt_1","type":"invoice.accepted","data":{"object":{"total":"12.30","buyer":"Żółć"}}}';

describe('signatureHeader', () => {
  test('matches an HMAC computed independently (openssl dgst -sha256 -hmac)', () => {
    expect(signatureHeader('whsec_known_answer', BODY, 1767225600)).toBe('t=1767225600,v1=cdb6af5bf59712a44c0cb185a5638412d83292ebc57c2ebdbe8cb5a9ef557a35');
  });

  test('uses the current Unix time by default and has no spaces', () => {
    const before = Math.floor(Date.now() / 1000);
    const header = signatureHeader('whsec_x', BODY);
    const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(header)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(before + 1);
  });

  test('verifies with the SDK a receiver uses', () => {
    const header = signatureHeader('whsec_roundtrip', BODY);
    expect(verifyWebhookSignature(Buffer.from(BODY, 'utf8'), header, 'whsec_roundtrip')).toBe(true);
    expect(verifyWebhookSignature(BODY, header, 'whsec_other')).toBe(false);
  });
});
