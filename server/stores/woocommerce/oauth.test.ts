import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rfc3986, signOAuth } from './oauth';

describe('OAuth 1.0a signer (WooCommerce over HTTP)', () => {
  it('signs the base string WooCommerce rebuilds: method, encoded URL, sorted encoded parameters, key secret&', () => {
    const out = signOAuth({
      method: 'get',
      url: 'http://shop.example.pl/wp-json/wc/v3/orders',
      query: [
        ['per_page', '100'],
        ['modified_after', '2026-06-01T19:47:12'],
        ['dates_are_gmt', 'true'],
      ],
      consumerKey: 'ck_1',
      consumerSecret: 'cs_2',
      timestamp: 1780000000,
      nonce: 'n0',
    });
    // hand-built from woocommerce-rules.md §3.3 (uksort strcmp, rawurlencode twice)
    const base =
      'GET&http%3A%2F%2Fshop.example.pl%2Fwp-json%2Fwc%2Fv3%2Forders&' +
      'dates_are_gmt%3Dtrue%26modified_after%3D2026-06-01T19%253A47%253A12%26oauth_consumer_key%3Dck_1%26oauth_nonce%3Dn0' +
      '%26oauth_signature_method%3DHMAC-SHA256%26oauth_timestamp%3D1780000000%26per_page%3D100';
    expect(out.oauth_signature).toBe(createHmac('sha256', 'cs_2&').update(base).digest('base64'));
    expect(out.oauth_signature_method).toBe('HMAC-SHA256');
  });

  it('encodes like PHP rawurlencode (space %20, tilde literal, !*() escaped)', () => {
    expect(rfc3986("a b~c!*'()")).toBe('a%20b~c%21%2A%27%28%29');
  });

  it('uses a new nonce each time', () => {
    const input = { method: 'GET', url: 'http://s/', query: [], consumerKey: 'k', consumerSecret: 's', timestamp: 1 };
    expect(signOAuth(input).oauth_nonce).not.toBe(signOAuth(input).oauth_nonce);
  });
});
