import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  X509Certificate,
  type KeyLike,
} from 'node:crypto';

export type PublicKeyUsage = 'KsefTokenEncryption' | 'SymmetricKeyEncryption';

/** One entry of GET /security/public-key-certificates (README §4). */
export type PublicKeyCertificate = {
  certificate: string;
  certificateId?: string;
  publicKeyId?: string;
  validFrom: string;
  validTo: string;
  usage: string[];
};

export type SessionKey = { key: Buffer; iv: Buffer };

/** Base64 SHA-256 of the exact bytes, as KSeF expects in every hash field. */
export const sha256Base64 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('base64');

export const newSessionKey = (): SessionKey => ({ key: randomBytes(32), iv: randomBytes(16) });

/** AES-256-CBC with PKCS#7; the IV travels separately in the session opening, never as a prefix (README §6.1). */
export function encryptAes(data: Uint8Array, { key, iv }: SessionKey): Buffer {
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

export function decryptAes(data: Uint8Array, { key, iv }: SessionKey): Buffer {
  const decipher = createDecipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

/** RSAES-OAEP with SHA-256 for both the digest and MGF1 (node uses oaepHash for MGF1 too), empty label. */
export const encryptRsaOaep = (publicKey: KeyLike, data: Uint8Array): Buffer =>
  publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);

export const decryptRsaOaep = (privateKey: KeyLike, data: Uint8Array): Buffer =>
  privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);

/** The certificate's DER (Base64, no armour) as an X509Certificate, for its public key. */
export const parseKsefCertificate = (certificate: string): X509Certificate => new X509Certificate(Buffer.from(certificate, 'base64'));

/** Valid now and carrying the usage; among several the latest validFrom wins (README §4, not the Java client's rule). */
export function selectPublicKeyCertificate(list: PublicKeyCertificate[], usage: PublicKeyUsage, now = new Date()): PublicKeyCertificate {
  const fit = list
    .filter((c) => c.usage.includes(usage) && Date.parse(c.validFrom) <= now.getTime() && now.getTime() < Date.parse(c.validTo))
    .sort((a, b) => Date.parse(b.validFrom) - Date.parse(a.validFrom));
  const chosen = fit[0];
  if (!chosen) throw new Error(`KSeF publishes no valid public key certificate for ${usage}`);
  return chosen;
}
