import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { fixtureOrder4817 } from '@/test/fixtures/wc-payloads';
import { StoreRequestError } from '../platform';
import { woocommerce } from './platform';

const headers = (h: Record<string, string>) => new Headers(h);

describe('the WooCommerce adapter', () => {
  it('reads the save-time ping, a signed delivery, and an unsigned one', () => {
    expect(woocommerce.envelope(headers({}), Buffer.from('webhook_id=12'))).toEqual({ ping: true });
    const signed = { 'x-wc-webhook-topic': 'order.updated', 'x-wc-webhook-id': '12', 'x-wc-webhook-signature': 'c2ln' };
    expect(woocommerce.envelope(headers(signed), Buffer.from('{}'))).toEqual({ webhookId: 12, topic: 'order.updated', signature: 'c2ln' });
    expect(woocommerce.envelope(headers({ ...signed, 'x-wc-webhook-id': '0' }), Buffer.from('{}'))).toEqual({ unsigned: true, topic: 'order.updated' });
    expect(woocommerce.envelope(headers({}), Buffer.from('{}'))).toEqual({ unsigned: true, topic: null });
  });

  it('checks a base64 HMAC-SHA256 of the raw body', () => {
    const raw = Buffer.from('{"id":1}');
    const signature = createHmac('sha256', 'secret').update(raw).digest('base64');
    expect(woocommerce.signatureMatches('secret', raw, signature)).toBe(true);
    expect(woocommerce.signatureMatches('secret', Buffer.from('{"id":2}'), signature)).toBe(false);
    expect(woocommerce.signatureMatches('secret', raw, 'short')).toBe(false);
  });

  it('reads the order of a delivery: its id, when it was placed (UTC) and its refund ids', () => {
    const order = woocommerce.orderOf({ ...fixtureOrder4817(), date_created_gmt: '2026-11-27T20:42:05', refunds: [{ id: 4822 }] });
    expect(order).toMatchObject({ createdAt: new Date('2026-11-27T20:42:05Z'), refundIds: [4822] });
    expect(woocommerce.orderOf({ code: 'woocommerce_rest_cannot_view', message: 'no' })).toBeNull();
    expect(woocommerce.orderOf({ ...fixtureOrder4817(), date_created_gmt: null })?.createdAt).toBeNull();
  });

  it('order topics carry an order; a deleted order and other resources do not', () => {
    expect(['order.created', 'order.updated', 'order.deleted', 'product.updated'].map(woocommerce.carriesOrder)).toEqual([true, true, false, false]);
  });

  it('classifies failures: gone, keys refused, or retry', () => {
    expect(woocommerce.classify(new StoreRequestError(404, 'woocommerce_rest_shop_order_invalid_id', 'x'))).toBe('gone');
    expect(woocommerce.classify(new StoreRequestError(500, 'woocommerce_rest_invalid_order_refund_id', 'x'))).toBe('gone');
    expect(woocommerce.classify(new AppError('store_keys_invalid', 'consumer_key', 'x'))).toBe('keys_refused');
    expect(woocommerce.classify(new AppError('store_unreachable', 'url', 'x'))).toBe('retry');
    expect(woocommerce.classify(new StoreRequestError(502, '', 'x'))).toBe('retry');
  });

  it('takes a consumer key and secret, trimmed, and names a missing one', () => {
    expect(woocommerce.credentials({ consumerKey: ' ck_1 ', consumerSecret: 'cs_1', url: 'https://x' })).toEqual({
      consumerKey: 'ck_1',
      consumerSecret: 'cs_1',
    });
    expect(() => woocommerce.credentials({ consumerKey: 'ck_1', consumerSecret: ' ' })).toThrow(expect.objectContaining({ param: 'consumer_secret' }));
  });
});
