import { z } from 'zod';

/** A KSeF certificate as the dashboard uploads it (login and Offline certificates alike): a .p12/.pfx, or PEM files. */
export const ZCertificateUpload = z.discriminatedUnion('format', [
  z.object({ format: z.literal('p12'), p12Base64: z.string().min(1).max(200_000), password: z.string().max(500) }),
  z.object({
    format: z.literal('pem'),
    certificatePem: z.string().min(1).max(100_000),
    privateKeyPem: z.string().min(1).max(100_000),
    keyPassword: z.string().max(500).optional(),
  }),
]);
export type CertificateUpload = z.infer<typeof ZCertificateUpload>;
