import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { config } from '@/server/config';
import { validateXml } from './xsd';

const sample = () => readFileSync(path.join(config().KSEF_SCHEMAS_DIR, '../samples/fa3-sample.xml'), 'utf8');

test('the official FA(3) sample validates offline', () => {
  expect(validateXml(sample(), 'fa3')).toEqual({ ok: true });
});

test("an unexpected element is reported with libxml2's message", () => {
  const result = validateXml(sample().replace('<P_2>', '<P_2x>').replace('</P_2>', '</P_2x>'), 'fa3');
  expect(result.ok).toBe(false);
  expect(!result.ok && result.message).toMatch(/P_2x.*not expected/);
});

test('text that is not XML is reported, not thrown', () => {
  expect(validateXml('<Faktura>', 'fa3').ok).toBe(false);
});

test('the auth v2-1 schema accepts an unsigned AuthTokenRequest and rejects a wrong context', () => {
  const doc = (nip: string) =>
    `<AuthTokenRequest xmlns="http://ksef.mf.gov.pl/auth/token/2.1"><Challenge>20250604-CR-461EA5B000-537A6BA15D-D7</Challenge>` +
    `<ContextIdentifier><Nip>${nip}</Nip></ContextIdentifier><SubjectIdentifierType>certificateSubject</SubjectIdentifierType></AuthTokenRequest>`;
  expect(validateXml(doc('5265877635'), 'auth')).toEqual({ ok: true });
  expect(validateXml(doc('12'), 'auth').ok).toBe(false);
});

test('exact bytes validate like text', () => {
  expect(validateXml(Buffer.from(sample(), 'utf8'), 'fa3')).toEqual({ ok: true });
});
