import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { PublicKeyUsage } from '@/server/ksef/crypto';
import { createSelfSignedCertificate } from './self-signed-certificate';

export type EmulatorKey = {
  usage: PublicKeyUsage;
  privateKey: KeyObject;
  certificate: string;
  certificateId: string;
  publicKeyId: string;
  validFrom: string;
  validTo: string;
};

export type EmulatorKeys = Record<PublicKeyUsage, EmulatorKey>;

async function createKey(usage: PublicKeyUsage): Promise<EmulatorKey> {
  const made = await createSelfSignedCertificate(
    [
      { oid: '2.5.4.3', value: `KSeF Emulator ${usage}` },
      { oid: '2.5.4.10', value: 'KSeF Relay emulator' },
      { oid: '2.5.4.6', value: 'PL' },
    ],
    'rsa',
    730,
  );
  const cert = new X509Certificate(made.certificatePem);
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  return {
    usage,
    privateKey: createPrivateKey(made.privateKeyPem),
    certificate: made.certificateDer.toString('base64'),
    certificateId: createHash('sha256').update(made.certificateDer).digest('base64'),
    publicKeyId: createHash('sha256').update(spki).digest('base64'),
    validFrom: new Date(cert.validFrom).toISOString(),
    validTo: new Date(cert.validTo).toISOString(),
  };
}

let shared: Promise<EmulatorKeys> | undefined;

/**
 * Two RSA-2048 pairs, one per usage, as the real KSeF uses different keys (README §4). Emulators started in one
 * process share them: RSA generation is the slowest part of a start, and state, not keys, is what a restart resets.
 */
export function emulatorKeys(): Promise<EmulatorKeys> {
  shared ??= Promise.all([createKey('KsefTokenEncryption'), createKey('SymmetricKeyEncryption')]).then(([token, symmetric]) => ({
    KsefTokenEncryption: token,
    SymmetricKeyEncryption: symmetric,
  }));
  return shared;
}

/** The published list for GET /security/public-key-certificates. */
export const publicKeyCertificates = (keys: EmulatorKeys) =>
  Object.values(keys).map(({ certificate, certificateId, publicKeyId, validFrom, validTo, usage }) => ({
    certificate,
    certificateId,
    publicKeyId,
    validFrom,
    validTo,
    usage: [usage],
  }));
