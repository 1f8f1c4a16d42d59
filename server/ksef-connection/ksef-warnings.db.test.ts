import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createEmulatorControl, type EmulatorControl } from '@/emulators/ksef/control-client';
import { startKsefEmulator, type KsefEmulator } from '@/emulators/ksef/server';
import { randomNip, sampleInvoice } from '@/emulators/ksef/testing';
import { ksefWarnings } from '@/server/db/schema';
import { authenticate } from '@/server/ksef/auth';
import { createKsefClient, type KsefClient } from '@/server/ksef/client';
import { getSessionStatus, openOnlineSession, sendInvoice } from '@/server/ksef/online-session';
import { metrics } from '@/server/observability/metrics';
import { useTestDatabase } from '@/test/db';
import { recordKsefWarning, warningsOfDocument } from './ksef-warnings';

const t = useTestDatabase();
let emulator: KsefEmulator;
let control: EmulatorControl;
beforeAll(async () => {
  emulator = await startKsefEmulator({ processingDelayMs: 0 });
  control = createEmulatorControl(emulator.url);
});
afterAll(() => emulator.close());

async function login(): Promise<{ nip: string; client: KsefClient; accessToken: string }> {
  const nip = randomNip();
  const key = { environment: 'test' as const, context: nip };
  const client = createKsefClient({ baseUrl: emulator.url, onWarning: (seen) => recordKsefWarning(t.db(), key, seen) });
  const { accessToken } = await authenticate(client, { kind: 'token', nip, token: (await control.createCredentials(nip)).token });
  return { nip, client, accessToken };
}

const counted = async () => (await metrics().ksefWarnings.get()).values.find((v) => v.labels.group === 'invoiceSend')?.value ?? 0;

test('a warning on an invoice send is kept with its invoice and session, counted, and found for the document', async () => {
  const { nip, client, accessToken } = await login();
  const text = '[xml-001]: Faktura zawiera niedozwolone znaki Unicode, ktore po 19.10.2026 beda odrzucane.';
  await control.setFaults([{ endpoint: 'sendInvoice', kind: 'warning', warning: text, times: 1 }]);
  const before = await counted();
  const session = await openOnlineSession(client, accessToken);
  const sent = await sendInvoice(client, accessToken, session, sampleInvoice({ nip, number: 'W/1' }));
  await control.clearFaults();

  const rows = await t.db().select().from(ksefWarnings).where(eq(ksefWarnings.context, nip));
  expect(rows).toMatchObject([
    {
      environment: 'test',
      method: 'POST',
      path: `/sessions/online/${session.referenceNumber}/invoices`,
      status: 202,
      sessionRef: session.referenceNumber,
      invoiceRef: sent.invoiceReferenceNumber,
      code: 'xml-001',
      message: 'Faktura zawiera niedozwolone znaki Unicode, ktore po 19.10.2026 beda odrzucane.',
    },
  ]);
  expect((await counted()) - before).toBe(1);

  // X-Test-System-Warning: KSeF TEST answers with its content as X-System-Warning (changelog 2.6.0)
  await client.http.send({
    method: 'GET',
    path: `/sessions/${session.referenceNumber}`,
    bearer: accessToken,
    headers: { 'x-test-system-warning': 'Test-forced' },
  });
  const doc = { ksefEnvironment: 'test' as const, ksefSessionRef: session.referenceNumber, ksefInvoiceRef: sent.invoiceReferenceNumber, ksefNumber: null };
  expect((await warningsOfDocument(t.db(), doc)).map((w) => [w.code, w.message])).toEqual([
    ['xml-001', 'Faktura zawiera niedozwolone znaki Unicode, ktore po 19.10.2026 beda odrzucane.'],
    [null, 'Test-forced'],
  ]);
  // another document of the same session sees the session's warning, not this invoice's
  expect((await warningsOfDocument(t.db(), { ...doc, ksefInvoiceRef: 'other' })).map((w) => w.message)).toEqual(['Test-forced']);
});

test('no header, no row: an ordinary answer records nothing', async () => {
  const { nip, client, accessToken } = await login();
  const session = await openOnlineSession(client, accessToken);
  await getSessionStatus(client, accessToken, session.referenceNumber);
  expect(await t.db().select().from(ksefWarnings).where(eq(ksefWarnings.context, nip))).toEqual([]);
});
