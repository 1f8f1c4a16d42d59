import { expect, test } from 'vitest';
import { readAccountChoice, readMode } from './dashboard-session';

test('the switches read from the cookie header: live or test, and an account id of the right shape only', () => {
  expect(readMode('kr_lang=pl; kr_mode=live')).toBe('live');
  expect(readMode('kr_mode=prod')).toBe('test');
  expect(readAccountChoice('kr_mode=live; kr_account=acct_Ab12; kr_lang=en')).toBe('acct_Ab12');
  expect(readAccountChoice("kr_account=acct_x' or 1=1")).toBeNull();
  expect(readAccountChoice('xkr_account=acct_Ab12')).toBeNull();
  expect(readAccountChoice(null)).toBeNull();
});
