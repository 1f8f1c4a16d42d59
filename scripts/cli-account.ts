import { enableLive, setMonthlyLimit } from '@/server/accounts/account-settings';
import { createAccount } from '@/server/accounts/create-account';
import { type SellerData, ZSellerData } from '@/server/accounts/seller-data';
import { resetConfig } from '@/server/config';
import { checkKsefConnectionWithin } from '@/server/ksef-connection/check-connection';
import { connectToEmulator } from '@/server/ksef-connection/emulator-credentials';
import { type CliCommand, type CliValues, UsageError } from './cli-args';
import { ksefEmulatorUrl } from './stack-file';

const SELLER_FLAGS = { nip: 'seller-nip', name: 'seller-name', address1: 'seller-address1', address2: 'seller-address2' } as const;

/**
 * The seller of `account create`, checked field by field by the dashboard's rules (server/accounts/seller-data.ts):
 * a flag left out leaves that field for the dashboard (`--seller-nip` alone is enough for `--ksef-emulator`); a
 * given one that the rules refuse stops the command before anything is stored.
 */
function sellerFromFlags(values: CliValues): Partial<SellerData> {
  const given = Object.fromEntries(Object.entries(SELLER_FLAGS).map(([field, flag]) => [field, values[flag]]));
  const parsed = ZSellerData.partial().safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `--${SELLER_FLAGS[i.path[0] as keyof typeof SELLER_FLAGS]}: ${i.message}`);
    throw new UsageError(`invalid seller data, nothing created: ${problems.join('; ')}`);
  }
  return parsed.data;
}

export const accountCreate: CliCommand = async (db, _arg, values) => {
  if (!values.email) throw new UsageError('--email is required');
  const seller = sellerFromFlags(values);
  const created = await createAccount(db, { email: values.email, password: values.password, seller });
  if (values['ksef-emulator']) {
    const scope = { accountId: created.accountId, mode: 'test' } as const;
    await connectToEmulator(db, scope, ksefEmulatorUrl());
    // test mode now talks to that emulator; checking here lets GET /v1/account say at once that it works
    process.env.KSEF_TEST_BASE_URL = ksefEmulatorUrl();
    resetConfig();
    const check = await checkKsefConnectionWithin(db, scope);
    return { account: created.accountId, test_key: created.testKey, live_key: created.liveKey, ksef_connected: check.connected };
  }
  return { account: created.accountId, test_key: created.testKey, live_key: created.liveKey };
};

export const accountEnableLive: CliCommand = async (db, arg) => {
  if (!arg) throw new UsageError('account id required');
  if (!(await enableLive(db, arg))) throw new UsageError(`no account ${arg}`);
  return { account: arg, live_enabled: true };
};

export const accountPlan: CliCommand = async (db, arg, values) => {
  if (!arg) throw new UsageError('account id required');
  const raw = values['monthly-limit'];
  const limit = raw === 'none' ? null : Number(raw);
  if (limit !== null && !(Number.isInteger(limit) && limit >= 0)) throw new UsageError('--monthly-limit takes a whole number or none');
  if (!(await setMonthlyLimit(db, arg, limit))) throw new UsageError(`no account ${arg}`);
  return { account: arg, monthly_limit: limit };
};
