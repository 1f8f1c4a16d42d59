import { afterAll, beforeAll, expect, test } from 'vitest';
import { createEmulatorControl } from '@/emulators/ksef/control-client';
import { startKsefEmulator, type KsefEmulator } from '@/emulators/ksef/server';
import { randomNip } from '@/emulators/ksef/testing';
import { authenticate } from '@/server/ksef/auth';
import { createKsefClient } from '@/server/ksef/client';
import { closeOnlineSession, openOnlineSession } from '@/server/ksef/online-session';
import { useTestDatabase } from '@/test/db';
import { createThrottledFetch, limiterOf, readWindowUsage } from './throttle';

const t = useTestDatabase();
let emulator: KsefEmulator;
beforeAll(async () => {
  emulator = await startKsefEmulator({ processingDelayMs: 0, limits: 'prod' });
});
afterAll(() => emulator.close());

test('closing a session counts in its own group (API 2.8.0): each counted on its own limiter, no 429', async () => {
  const nip = randomNip();
  const key = { environment: 'test' as const, context: nip };
  const client = createKsefClient({ baseUrl: emulator.url, fetch: createThrottledFetch(t.db(), key, emulator.url) });
  const control = createEmulatorControl(emulator.url);
  const { accessToken } = await authenticate(client, { kind: 'token', nip, token: (await control.createCredentials(nip)).token });

  const sessions = await Promise.all(Array.from({ length: 10 }, () => openOnlineSession(client, accessToken)));
  await Promise.all(sessions.map((s) => closeOnlineSession(client, accessToken, s.referenceNumber)));

  const open = limiterOf(key, 'onlineSession', 'onlineSession');
  const close = limiterOf(key, 'onlineSessionClose', 'onlineSessionClose');
  const usage = await readWindowUsage(t.db(), [open, close]);
  expect([usage.get(open)?.minute, usage.get(close)?.minute]).toEqual([10, 10]);
  expect((await control.counters()).rateLimited).toBe(0);
});
