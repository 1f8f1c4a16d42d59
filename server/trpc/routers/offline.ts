import { z } from 'zod';
import { getAccountMode } from '@/server/accounts/account-settings';
import { isKsefEmulator } from '@/server/ksef-connection/emulator-control';
import { offlineCertificateState, uploadOfflineCertificate } from '@/server/ksef-connection/offline-certificate';
import { getOfflinePolicy, setOfflinePolicy } from '@/server/ksef-connection/offline-policy';
import { AppError } from '@/server/errors';
import { ZCertificateUpload } from '@/server/ksef-connection/certificate-upload';
import { enrolOfflineCertificate, finishOfflineEnrolment, readEnrolmentError } from '@/server/submission/enrol-offline-certificate';
import { offlineSummary } from '@/server/submission/offline-deadlines';
import { correctTechnically } from '@/server/submission/technical-correction';
import { memberProcedure, ownerProcedure, router } from '@/server/trpc/init';

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
      enrolmentError: readEnrolmentError(mode.offlineEnrolmentError),
      // enrolment needs a XAdES login: a KSeF-token connection cannot enrol (25001/25002)
      canEnrol: mode.ksefCredentialKind === 'certificate',
      // why not, as a code the dashboard translates; against the local emulator a certificate login is one click away
      cannotEnrol:
        mode.ksefCredentialKind === 'certificate'
          ? null
          : ctx.scope.mode === 'test' && (await isKsefEmulator())
            ? ('token_emulator' as const)
            : ('token' as const),
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
    if (outcome.state === 'failed')
      throw AppError.detailed(outcome.detail === 'enrol_no_answer' ? 'ksef_unavailable' : 'ksef_rejected', undefined, outcome.detail, outcome.params);
    return outcome.state === 'done' ? { state: 'done' as const, serial: outcome.certificate.serial } : { state: 'pending' as const };
  }),
  setPolicy: ownerProcedure
    .input(z.object({ policy: z.enum(['off', 'when_unavailable', 'always']), delaySeconds: z.number().int() }))
    .mutation(({ ctx, input }) => setOfflinePolicy(ctx.db, ctx.scope, input)),
  technicalCorrection: ownerProcedure.input(z.object({ id: z.string().min(1) })).mutation(({ ctx, input }) => correctTechnically(ctx.db, ctx.scope, input.id)),
});
