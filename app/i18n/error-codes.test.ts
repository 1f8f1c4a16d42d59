import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { expect, test } from 'vitest';
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

test.each(Object.entries(dictionaries))('%s translates every finer cause, naming the same values as the service', (_, t) => {
  for (const [detail, english] of Object.entries(ERROR_DETAILS)) {
    expect(t.errorDetails[detail], detail).toBeTruthy();
    expect(placeholders(t.errorDetails[detail] ?? ''), detail).toEqual(placeholders(english));
  }
});
