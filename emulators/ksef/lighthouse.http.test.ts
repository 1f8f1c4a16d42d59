import { afterAll, beforeAll, expect, test } from 'vitest';
import { fetchKsefStatus } from '@/server/outage/status-source';
import { createEmulatorControl, type EmulatorControl } from './control-client';
import { startKsefEmulator, type KsefEmulator } from './server';

let emulator: KsefEmulator;
let control: EmulatorControl;
let origin: string;

beforeAll(async () => {
  emulator = await startKsefEmulator({ processingDelayMs: 0, limits: 'off' });
  control = createEmulatorControl(emulator.url);
  origin = new URL(emulator.url).origin;
});
afterAll(() => emulator.close());

const get = async (path: string) => {
  const res = await fetch(`${origin}${path}`);
  return { status: res.status, body: (await res.json()) as unknown };
};

test('the status service answers AVAILABLE, then what the control endpoint sets, with the messages of that status', async () => {
  expect(await get('/latarnia/status')).toEqual({ status: 200, body: { status: 'AVAILABLE' } });
  const start = '2026-03-02T09:00:00.000Z';
  await control.setLighthouse('MAINTENANCE', [{ id: 'm1', status: 'MAINTENANCE', title: 'Prace serwisowe', start, end: '2026-03-02T11:00:00.000Z' }]);
  await control.setLighthouse('FAILURE', [{ id: 'm2', status: 'FAILURE', title: 'Awaria KSeF', start }]);
  expect(await get('/latarnia/status')).toEqual({
    status: 200,
    body: { status: 'FAILURE', messages: [{ id: 'm2', status: 'FAILURE', title: 'Awaria KSeF', start }] },
  });
  expect(((await get('/latarnia/messages')).body as { id: string }[]).map((m) => m.id)).toEqual(['m1', 'm2']);
  expect(await fetchKsefStatus(`${origin}/latarnia`)).toBe('FAILURE');
  await control.setLighthouse('TOTAL_FAILURE');
  expect(await fetchKsefStatus(`${origin}/latarnia/`)).toBe('TOTAL_FAILURE');
});

test('an unknown status is refused by the control endpoint', async () => {
  const res = await fetch(`${origin}/control/lighthouse`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"status":"DOWN"}' });
  expect(res.status).toBe(400);
});
