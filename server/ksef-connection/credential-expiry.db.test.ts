import { expect, test } from 'vitest';
import { getAccountMode } from '@/server/accounts/account-settings';
import { END_OF_2026_TOKENS } from '@/server/ksef-connection/credential-expiry';
import { loadKsefCredential } from '@/server/ksef-connection/credentials';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { useKsefEmulator } from '@/test/pipeline';
import { accessTokenFor, CredentialRefusedError } from './access-token';
import { saveAndCheckKsefCredential } from './check-connection';
import { ksefClientFor } from './ksef-clients';

/** Issue 36.4: a credential has an end where KSeF or the certificate says it, and is not used past it. */
const t = useTestDatabase();
const ksef = useKsefEmulator();

const logins = async () => (await ksef.control().counters()).requests.authKsefToken ?? 0;

test('a token issued in 2026 ends on 30.11.2027: stored, shown, and past it never offered to KSeF', async () => {
  const acct = await createTestAccount(t.db());
  const { token, validTo } = await ksef.control().createCredentials(VALID_SELLER.nip, { issuedAt: '2026-11-27T10:00:00Z' });
  expect(validTo).toBe(END_OF_2026_TOKENS.toISOString()); // the emulator holds the same end
  expect(await saveAndCheckKsefCredential(t.db(), acct.testScope, { kind: 'token', token })).toEqual({ connected: true, error: null });
  expect((await getAccountMode(t.db(), acct.testScope)).mode.ksefCredentialValidTo).toEqual(END_OF_2026_TOKENS);

  const loaded = (await loadKsefCredential(t.db(), acct.testScope))!;
  const client = ksefClientFor(t.db(), loaded);
  const before = await logins();
  const err = await accessTokenFor(t.db(), acct.testScope, client, loaded, Date.parse('2027-12-01T08:00:00Z')).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CredentialRefusedError);
  expect(await logins()).toBe(before);
  const { mode } = await getAccountMode(t.db(), acct.testScope);
  expect(mode.ksefConnected).toBe(false);
  expect(mode.ksefCheckError).toMatch(/KSeF token expired on 2027-11-29T23:00:00.000Z/);
});

test('KSeF (the emulator) refuses a token past its end, and the merchant is told', async () => {
  const acct = await createTestAccount(t.db());
  const { token } = await ksef.control().createCredentials(VALID_SELLER.nip, { validTo: '2026-01-01T00:00:00Z' });
  const check = await saveAndCheckKsefCredential(t.db(), acct.testScope, { kind: 'token', token });
  expect(check.connected).toBe(false);
  expect(check.error).toMatch(/450|wygas/);
});
