import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import type { KsefEnvironment } from '@/server/db/schema';
import { createKsefClient, type KsefClient } from '@/server/ksef/client';
import type { LoadedCredential } from '@/server/ksef-connection/credentials';
import { recordKsefWarning } from './ksef-warnings';
import { createThrottledFetch } from './throttle';

const clients = new WeakMap<Db, Map<string, KsefClient>>();

export function ksefBaseUrl(environment: KsefEnvironment): string {
  const c = config();
  return { test: c.KSEF_TEST_BASE_URL, demo: c.KSEF_DEMO_BASE_URL, prod: c.KSEF_PROD_BASE_URL }[environment];
}

/**
 * The KSeF client of a seller context: every call it makes waits for the throttle of (environment, NIP), which
 * lives in PostgreSQL and so holds across worker processes; every warning KSeF sends it is kept (ksef_warnings).
 * One per context, base URL and process (it caches KSeF's public keys).
 */
export function ksefClientFor(db: Db, loaded: Pick<LoadedCredential, 'environment'> & { credential: { nip: string } }): KsefClient {
  const baseUrl = ksefBaseUrl(loaded.environment);
  let perDb = clients.get(db);
  if (!perDb) clients.set(db, (perDb = new Map()));
  const id = `${baseUrl}|${loaded.credential.nip}`;
  let client = perDb.get(id);
  if (!client) {
    const key = { environment: loaded.environment, context: loaded.credential.nip };
    const fetch = createThrottledFetch(db, key, baseUrl);
    client = createKsefClient({ baseUrl, timeoutMs: config().KSEF_TIMEOUT_MS, fetch, onWarning: (seen) => recordKsefWarning(db, key, seen) });
    perDb.set(id, client);
  }
  return client;
}
