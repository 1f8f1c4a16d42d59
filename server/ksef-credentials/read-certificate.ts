import { X509Certificate, createPrivateKey } from 'node:crypto';
import forge from 'node-forge';
import { AppError } from '@/server/errors';

export type CertificateUpload =
  { format: 'p12'; p12Base64: string; password: string } | { format: 'pem'; certificatePem: string; privateKeyPem: string; keyPassword?: string };

const invalid = (param: string, message: string) => new AppError('parameter_invalid', param, message);

/** A certificate that cannot sign is refused at upload, not at the first invoice. */
function checkPair(certificatePem: string, privateKeyPem: string): void {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certificatePem);
  } catch {
    throw invalid('certificate', 'The certificate is not a readable X.509 certificate.');
  }
  if (!cert.checkPrivateKey(createPrivateKey(privateKeyPem))) throw invalid('private_key', 'The private key does not belong to the certificate.');
  if (new Date(cert.validTo) < new Date()) throw invalid('certificate', `The certificate expired on ${cert.validTo}.`);
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
      throw invalid('private_key', 'The private key cannot be read (wrong format or password).');
    }
    const privateKeyPem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
    checkPair(upload.certificatePem, privateKeyPem);
    return { certificatePem: new X509Certificate(upload.certificatePem).toString(), privateKeyPem };
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.decode64(upload.p12Base64)), upload.password);
  } catch {
    throw invalid('password', 'The .p12/.pfx file cannot be opened: wrong password or not a PKCS#12 file.');
  }
  const firstBag = (type: string | undefined) => (type ? p12.getBags({ bagType: type })[type]?.[0] : undefined);
  const certBag = firstBag(forge.pki.oids.certBag);
  const keyBag = firstBag(forge.pki.oids.pkcs8ShroudedKeyBag) ?? firstBag(forge.pki.oids.keyBag);
  if (!certBag?.cert || !keyBag?.key) throw invalid('p12', 'The .p12/.pfx file has no certificate with a private key.');
  const certificatePem = forge.pki.certificateToPem(certBag.cert);
  const privateKeyPem = createPrivateKey(forge.pki.privateKeyToPem(keyBag.key)).export({ type: 'pkcs8', format: 'pem' }).toString();
  checkPair(certificatePem, privateKeyPem);
  return { certificatePem, privateKeyPem };
}
