import { generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { expect, test } from 'vitest';
import {
  decryptAes,
  decryptRsaOaep,
  encryptAes,
  encryptRsaOaep,
  newSessionKey,
  selectPublicKeyCertificate,
  sha256Base64,
  type PublicKeyCertificate,
} from './crypto';

test('AES-256-CBC output is the bare ciphertext: one full padding block more than a multiple of 16', () => {
  const key = newSessionKey();
  const plain = Buffer.alloc(6480, 'a');
  const cipher = encryptAes(plain, key);
  expect(cipher.length).toBe(6496); // the OpenAPI example's sizes (README §6.1)
  expect(decryptAes(cipher, key).equals(plain)).toBe(true);
});

test('RSA-OAEP round-trips with SHA-256 and a SHA-1 OAEP key cannot read it', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const wrapped = encryptRsaOaep(publicKey, Buffer.from('secret'));
  expect(decryptRsaOaep(privateKey, wrapped).toString()).toBe('secret');
  expect(() => privateDecrypt({ key: privateKey, oaepHash: 'sha1' }, wrapped)).toThrow();
});

test('sha256Base64 is 44 characters of standard Base64', () => {
  expect(sha256Base64('')).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
});

test('certificate selection: right usage, valid now, latest validFrom', () => {
  const cert = (id: string, usage: string, from: string, to: string): PublicKeyCertificate => ({
    certificate: id,
    publicKeyId: id,
    validFrom: from,
    validTo: to,
    usage: [usage],
  });
  const list = [
    cert('old', 'KsefTokenEncryption', '2025-01-01T00:00:00Z', '2027-01-01T00:00:00Z'),
    cert('new', 'KsefTokenEncryption', '2026-06-01T00:00:00Z', '2027-01-01T00:00:00Z'),
    cert('future', 'KsefTokenEncryption', '2026-12-01T00:00:00Z', '2028-01-01T00:00:00Z'),
    cert('sym', 'SymmetricKeyEncryption', '2025-01-01T00:00:00Z', '2027-01-01T00:00:00Z'),
  ];
  const now = new Date('2026-11-21T00:00:00Z');
  expect(selectPublicKeyCertificate(list, 'KsefTokenEncryption', now).publicKeyId).toBe('new');
  expect(selectPublicKeyCertificate(list, 'SymmetricKeyEncryption', now).publicKeyId).toBe('sym');
  expect(() => selectPublicKeyCertificate(list, 'SymmetricKeyEncryption', new Date('2030-01-01'))).toThrow();
});
