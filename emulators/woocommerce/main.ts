import { startWooEmulator } from './server';

/**
 * `tsx emulators/woocommerce/main.ts`: the emulated shop on WOOCOMMERCE_EMULATOR_PORT (plain HTTP, so clients use
 * OAuth 1.0a as WooCommerce requires). WOOCOMMERCE_EMULATOR_KEY / _SECRET pre-create a read_write REST key.
 */
const port = Number(process.env.WOOCOMMERCE_EMULATOR_PORT ?? 8183);
const emulator = await startWooEmulator({ port, host: process.env.WOOCOMMERCE_EMULATOR_HOST ?? '127.0.0.1' });
const key = process.env.WOOCOMMERCE_EMULATOR_KEY;
const secret = process.env.WOOCOMMERCE_EMULATOR_SECRET;
if (key && secret) {
  await fetch(`${emulator.url}/__control/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ consumer_key: key, consumer_secret: secret }),
  });
}
console.log(`WooCommerce emulator at ${emulator.url} (REST ${emulator.url}/wp-json/wc/v3, control ${emulator.url}/__control)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void emulator.close().then(() => process.exit(0)));
}
