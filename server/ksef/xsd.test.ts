import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { config } from '../config';
import { validateXml } from './xsd';

const sample = () => readFileSync(path.join(config().KSEF_SCHEMAS_DIR, '../samples/fa3-sample.xml'), 'utf8');

test('the official FA(3) sample validates offline', () => {
  expect(validateXml(sample(), 'fa3')).toEqual({ ok: true });
});

test('an unexpected element is reported with libxml2\'s message', () => {
  const result = validateXml(sample().replace('<P_2>', '<P_2x>').replace('</P_2>', '</P_2x>'), 'fa3');
  expect(result.ok).toBe(false);
  expect(!result.ok && result.message).toMatch(/P_2x.*not expected/);
});

test('text that is not XML is reported, not thrown', () => {
  expect(validateXml('<Faktura>', 'fa3').ok).toBe(false);
});
