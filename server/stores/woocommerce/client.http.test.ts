import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { wooControl, type WooKey } from '@/emulators/woocommerce/control-client';
import { startWooEmulator, type WooEmulator } from '@/emulators/woocommerce/server';
import { selfSignedForLocalhost } from '@/emulators/woocommerce/tls';
import { resetConfig } from '@/server/config';
import { wooClient } from './client';

let woo: WooEmulator;
let key: WooKey;
let caFile = '';

beforeAll(async () => {
  const tls = selfSignedForLocalhost();
  caFile = path.join(mkdtempSync(path.join(tmpdir(), 'kr-woo-')), 'ca.pem');
  writeFileSync(caFile, tls.cert);
  woo = await startWooEmulator({ port: 0, tls });
  // the control endpoint is on the same HTTPS server; the test process trusts it only for this call
  const control = wooControl(woo.url);
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  try {
    key = await control.createKey();
  } finally {
    delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  }
});
afterAll(async () => {
  delete process.env.STORE_TLS_CA_FILE;
  resetConfig();
  await woo?.close();
});

describe('WooCommerce REST over HTTPS (the emulator with a self-signed certificate)', () => {
  test('an untrusted certificate is an unreachable store', async () => {
    delete process.env.STORE_TLS_CA_FILE;
    resetConfig();
    await expect(wooClient(woo.url, { consumerKey: key.consumer_key, consumerSecret: key.consumer_secret }).webhooks()).rejects.toMatchObject({
      code: 'store_unreachable',
    });
  });

  test('HTTP Basic with the consumer key and secret; a wrong secret and an unknown key are refused as WooCommerce refuses them', async () => {
    process.env.STORE_TLS_CA_FILE = caFile;
    resetConfig();
    expect(woo.url.startsWith('https://')).toBe(true);
    const client = wooClient(woo.url, { consumerKey: key.consumer_key, consumerSecret: key.consumer_secret });
    await expect(client.webhooks()).resolves.toEqual([]);
    await expect(wooClient(woo.url, { consumerKey: key.consumer_key, consumerSecret: 'cs_wrong' }).webhooks()).rejects.toMatchObject({
      code: 'store_keys_invalid',
      message: expect.stringContaining('Consumer secret is invalid.'),
    });
    // on HTTPS an unknown key is no authentication error: the request runs anonymously and is refused later
    await expect(wooClient(woo.url, { consumerKey: 'ck_unknown', consumerSecret: 'cs_x' }).webhooks()).rejects.toMatchObject({
      code: 'store_keys_invalid',
      message: expect.stringContaining('woocommerce_rest_cannot_view'),
    });
  });
});
