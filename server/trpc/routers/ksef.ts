import { z } from 'zod';
import { getAccountMode } from '@/server/accounts/account-settings';
import { AppError } from '@/server/errors';
import { ZCertificateUpload } from '@/server/ksef-connection/certificate-upload';
import { expiryState } from '@/server/ksef-connection/credential-expiry';
import { loadKsefCredential } from '@/server/ksef-connection/credentials';
import { isKsefEmulator } from '@/server/ksef-connection/emulator-control';
import { readCertificate } from '@/server/ksef-connection/read-certificate';
import { checkKsefConnection, checkKsefConnectionWithin, saveAndCheckKsefCredential } from '@/server/ksef-connection/check-connection';
import { connectToEmulator } from '@/server/ksef-connection/emulator-credentials';
import { ksefBaseUrl } from '@/server/ksef-connection/ksef-clients';
import { router, ownerProcedure } from '@/server/trpc/init';

export const ksefRouter = router({
  status: ownerProcedure.query(async ({ ctx }) => {
    const [{ mode }, loaded] = await Promise.all([getAccountMode(ctx.db, ctx.scope), loadKsefCredential(ctx.db, ctx.scope)]);
    const validTo = loaded?.validTo ?? null;
    return {
      environment: mode.ksefEnvironment,
      credentialKind: mode.ksefCredentialKind,
      /** when the credential stops working (certificate notAfter, 2026 tokens 30.11.2027), null if not known */
      credentialValidTo: validTo,
      credentialExpiry: loaded ? expiryState(validTo, new Date()) : null,
      connected: mode.ksefConnected,
      checkError: mode.ksefCheckError,
      checkedAt: mode.ksefCheckedAt,
      sellerNip: mode.sellerNip,
      emulator: ctx.scope.mode === 'test' && (await isKsefEmulator()),
    };
  }),
  saveToken: ownerProcedure.input(z.object({ token: z.string().trim().min(10, 'required').max(2_000) })).mutation(async ({ ctx, input }) => {
    return saveAndCheckKsefCredential(ctx.db, ctx.scope, { kind: 'token', token: input.token });
  }),
  saveCertificate: ownerProcedure.input(ZCertificateUpload).mutation(async ({ ctx, input }) => {
    const pair = readCertificate(input);
    return saveAndCheckKsefCredential(ctx.db, ctx.scope, { kind: 'certificate', ...pair });
  }),
  testConnection: ownerProcedure.mutation(({ ctx }) => checkKsefConnection(ctx.db, ctx.scope)),
  /**
   * Test mode with the local emulator only: a token of the seller's NIP, or a test certificate (which may enrol an
   * Offline certificate), saved like an uploaded one.
   */
  connectEmulator: ownerProcedure.input(z.object({ kind: z.enum(['token', 'certificate']).default('token') }).optional()).mutation(async ({ ctx, input }) => {
    if (ctx.scope.mode !== 'test' || !(await isKsefEmulator())) throw AppError.detailed('ksef_unavailable', undefined, 'emulator_not_running');
    await connectToEmulator(ctx.db, ctx.scope, ksefBaseUrl('test'), input?.kind ?? 'token');
    return checkKsefConnectionWithin(ctx.db, ctx.scope);
  }),
});
