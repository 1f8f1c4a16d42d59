import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { expect, test } from 'vitest';
import { storedErrorText } from '@/app/components/error-text';
import { documentWarning, WARNINGS } from '@/server/documents/warning-texts';
import { ERRORS } from '@/server/facts/error-codes';
import { ERROR_DETAILS } from '@/server/facts/error-details';
import { en } from './en';
import { pl } from './pl';

const dictionaries = { pl, en };
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test.each(Object.entries(dictionaries))('%s translates every code of server/facts/error-codes.ts and of tRPC, with what to do', (_, t) => {
  for (const code of Object.keys(ERRORS)) {
    expect(t.errorCodes[code], code).toBeTruthy();
    expect(t.errorHelp[code], code).toBeTruthy();
  }
  for (const code of Object.keys(TRPC_ERROR_CODES_BY_KEY)) expect(t.errorCodes[code], code).toBeTruthy();
});

test.each(Object.entries(dictionaries))('%s says every document warning, naming the same values as the service', (_, t) => {
  for (const [key, w] of Object.entries(WARNINGS)) {
    expect(t.warningTexts[key], key).toBeTruthy();
    expect(placeholders(t.warningTexts[key] ?? ''), key).toEqual(placeholders(w.text));
  }
});

test("a stored warning reads whole in the reader's language, its values filled in", () => {
  const stored = documentWarning('invoice_late', { issueDate: '2026-10-20', deadline: '2026-09-15' });
  expect(storedErrorText(stored, pl)).toBe(
    'Wystawiona 2026-10-20, po terminie 2026-09-15 (15. dzień miesiąca po dostawie lub wcześniejszej zapłacie, art. 106i ust. 1-2 ustawy o VAT). Faktura jest ważna, ale wystawiona z opóźnieniem.',
  );
  expect(storedErrorText(stored, en)).toBe(stored.message);
  expect(stored.message).toMatch(/^Issued 2026-10-20, after 2026-09-15: /);
  // a warning stored before texts had keys keeps its English message
  expect(storedErrorText({ code: 'invoice_late', message: 'Issued late.' }, pl)).toBe('Issued late.');
});

test.each(Object.entries(dictionaries))('%s translates every finer cause, naming the same values as the service', (_, t) => {
  for (const [detail, english] of Object.entries(ERROR_DETAILS)) {
    expect(t.errorDetails[detail], detail).toBeTruthy();
    expect(placeholders(t.errorDetails[detail] ?? ''), detail).toEqual(placeholders(english));
  }
});
