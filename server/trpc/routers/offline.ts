import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { getAccountMode } from '@/server/accounts/account-settings';
import { isKsefEmulator } from '@/server/ksef-credentials/emulator-control';
import { offlineCertificateState, uploadOfflineCertificate } from '@/server/ksef-credentials/offline-certificate';
import { getOfflinePolicy, setOfflinePolicy } from '@/server/ksef-credentials/offline-policy';
import { enrolOfflineCertificate, finishOfflineEnrolment, TOKEN_CANNOT_ENROL } from '@/server/submission/enrol-offline-certificate';
import { offlineSummary } from '@/server/submission/offline-deadlines';
import { correctTechnically } from '@/server/submission/technical-correction';
import { memberProcedure, ownerProcedure, router } from '@/server/trpc/init';

const ZCertificateUpload = z.discriminatedUnion('format', [
  z.object({ format: z.literal('p12'), p12Base64: z.string().min(1).max(200_000), password: z.string().max(500) }),
  z.object({
    format: z.literal('pem'),
    certificatePem: z.string().min(1).max(100_000),
    privateKeyPem: z.string().min(1).max(100_000),
    keyPassword: z.string().max(500).optional(),
  }),
]);

/** Against the local emulator a certificate login is one click away, on the same page (ksef-connection.tsx). */
const EMULATOR_CERTIFICATE_HINT = 'In test mode with the local KSeF emulator, "Create a test certificate" above gives such a login.';

/** Offline issuing (issue 17): the KSeF Offline certificate, the setting, enrolment, deadlines, technical correction. */
export const offlineRouter = router({
  /** The overview's card: offline documents waiting for KSeF and their deadlines, without the certificate. */
  summary: memberProcedure.query(({ ctx }) => offlineSummary(ctx.db, ctx.scope, new Date())),
  status: ownerProcedure.query(async ({ ctx }) => {
    const { mode } = await getAccountMode(ctx.db, ctx.scope);
    const now = new Date();
    return {
      certificate: { ...offlineCertificateState(mode, now), source: mode.offlineCertificateSource },
      enrolmentPending: Boolean(mode.offlineEnrolment),
      enrolmentError: mode.offlineEnrolmentError,
      // enrolment needs a XAdES login: a KSeF-token connection cannot enrol (25001/25002)
      canEnrol: mode.ksefCredentialKind === 'certificate',
      cannotEnrolReason:
        mode.ksefCredentialKind === 'certificate'
          ? null
          : ctx.scope.mode === 'test' && (await isKsefEmulator())
            ? `${TOKEN_CANNOT_ENROL} ${EMULATOR_CERTIFICATE_HINT}`
            : TOKEN_CANNOT_ENROL,
      ...(await getOfflinePolicy(ctx.db, ctx.scope)),
      summary: await offlineSummary(ctx.db, ctx.scope, now),
    };
  }),
  uploadCertificate: ownerProcedure.input(ZCertificateUpload).mutation(async ({ ctx, input }) => {
    const cert = await uploadOfflineCertificate(ctx.db, ctx.scope, input);
    return { serial: cert.serial, validTo: cert.validTo };
  }),
  enrol: ownerProcedure.mutation(async ({ ctx }) => {
    const { mode } = await getAccountMode(ctx.db, ctx.scope);
    const outcome = mode.offlineEnrolment ? await finishOfflineEnrolment(ctx.db, ctx.scope) : await enrolOfflineCertificate(ctx.db, ctx.scope);
    if (outcome.state === 'failed') throw new TRPCError({ code: 'BAD_REQUEST', message: outcome.reason });
    return outcome.state === 'done' ? { state: 'done' as const, serial: outcome.certificate.serial } : { state: 'pending' as const };
  }),
  setPolicy: ownerProcedure
    .input(z.object({ policy: z.enum(['off', 'when_unavailable', 'always']), delaySeconds: z.number().int() }))
    .mutation(({ ctx, input }) => setOfflinePolicy(ctx.db, ctx.scope, input)),
  technicalCorrection: ownerProcedure.input(z.object({ id: z.string().min(1) })).mutation(({ ctx, input }) => correctTechnically(ctx.db, ctx.scope, input.id)),
});
