import { X509Certificate, createPrivateKey } from 'node:crypto';
import forge from 'node-forge';
import { AppError, type ErrorDetail, type ErrorParams } from '@/server/errors';
import type { CertificateUpload } from './certificate-upload';

const invalid = (param: string, detail: ErrorDetail, params?: ErrorParams) => AppError.detailed('parameter_invalid', param, detail, params);

/** A certificate that cannot sign is refused at upload, not at the first invoice. */
function checkPair(certificatePem: string, privateKeyPem: string): void {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certificatePem);
  } catch {
    throw invalid('certificate', 'certificate_unreadable');
  }
  if (!cert.checkPrivateKey(createPrivateKey(privateKeyPem))) throw invalid('private_key', 'private_key_mismatch');
  if (new Date(cert.validTo) < new Date()) throw invalid('certificate', 'certificate_expired', { date: new Date(cert.validTo).toISOString() });
}

/**
 * The KSeF certificate as PEM certificate and unencrypted PKCS#8 key, from a .p12/.pfx with its password or
 * from PEM files (the key possibly encrypted). Errors name the field to fix.
 */
export function readCertificate(upload: CertificateUpload): { certificatePem: string; privateKeyPem: string } {
  if (upload.format === 'pem') {
    let key;
    try {
      key = createPrivateKey({ key: upload.privateKeyPem, passphrase: upload.keyPassword || undefined });
    } catch {
      throw invalid('private_key', 'private_key_unreadable');
    }
    const privateKeyPem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
    checkPair(upload.certificatePem, privateKeyPem);
    return { certificatePem: new X509Certificate(upload.certificatePem).toString(), privateKeyPem };
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.decode64(upload.p12Base64)), upload.password);
  } catch {
    throw invalid('password', 'p12_unreadable');
  }
  const firstBag = (type: string | undefined) => (type ? p12.getBags({ bagType: type })[type]?.[0] : undefined);
  const certBag = firstBag(forge.pki.oids.certBag);
  const keyBag = firstBag(forge.pki.oids.pkcs8ShroudedKeyBag) ?? firstBag(forge.pki.oids.keyBag);
  if (!certBag?.cert || !keyBag?.key) throw invalid('p12', 'p12_without_key');
  const certificatePem = forge.pki.certificateToPem(certBag.cert);
  const privateKeyPem = createPrivateKey(forge.pki.privateKeyToPem(keyBag.key)).export({ type: 'pkcs8', format: 'pem' }).toString();
  checkPair(certificatePem, privateKeyPem);
  return { certificatePem, privateKeyPem };
}
