import { config } from '../config';
import type { KsefEnvironment } from '../db/schema';
import { createKsefClient, type KsefClient } from '../ksef/client';

const clients = new Map<string, KsefClient>();

export function ksefBaseUrl(environment: KsefEnvironment): string {
  const c = config();
  return { test: c.KSEF_TEST_BASE_URL, demo: c.KSEF_DEMO_BASE_URL, prod: c.KSEF_PROD_BASE_URL }[environment];
}

/** One client per KSeF base URL and process: it caches KSeF's public keys. */
export function ksefClientFor(environment: KsefEnvironment): KsefClient {
  const baseUrl = ksefBaseUrl(environment);
  let client = clients.get(baseUrl);
  if (!client) {
    client = createKsefClient({ baseUrl, timeoutMs: Number(process.env.KSEF_TIMEOUT_MS ?? 30_000) });
    clients.set(baseUrl, client);
  }
  return client;
}
