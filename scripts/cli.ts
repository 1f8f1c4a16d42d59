import { parseArgs } from 'node:util';
import { enableLive, setMonthlyLimit } from '../server/accounts/account-settings';
import { createAccount } from '../server/accounts/create-account';
import { createApiKey, revokeApiKeys } from '../server/auth/api-keys';
import { createDb } from '../server/db/client';
import { locateDatabase } from '../server/db/locate';
import { migrateDatabase } from '../server/db/migrate';
import { connectToEmulator } from '../server/submission/emulator-credentials';
import { ksefEmulatorUrl, loadAppSecret } from './stack-file';

/** `npm run cli -- <group> <command> …`: each command prints one JSON line on stdout (tests and e2e read it). */
const USAGE = `usage:
  account create --email E [--password P] [--seller-nip N --seller-name S --seller-address1 A1 --seller-address2 A2] [--ksef-emulator]
  account enable-live ACCT
  account plan ACCT --monthly-limit N|none
  key create ACCT --mode test|live
  key revoke KEY_PREFIX`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'seller-nip': { type: 'string' },
      'seller-name': { type: 'string' },
      'seller-address1': { type: 'string' },
      'seller-address2': { type: 'string' },
      'ksef-emulator': { type: 'boolean' },
      'monthly-limit': { type: 'string' },
      mode: { type: 'string' },
    },
  });
  const [group, command, arg] = positionals;
  loadAppSecret();
  const located = await locateDatabase({ reuseRunning: true });
  await migrateDatabase(located.url);
  const db = createDb(located.url, { max: 2 });
  try {
    switch (`${group} ${command}`) {
      case 'account create': {
        if (!values.email) throw new UsageError('--email is required');
        const seller = {
          nip: values['seller-nip'],
          name: values['seller-name'],
          address1: values['seller-address1'],
          address2: values['seller-address2'],
        };
        const created = await createAccount(db, { email: values.email, password: values.password, seller });
        if (values['ksef-emulator']) await connectToEmulator(db, { accountId: created.accountId, mode: 'test' }, ksefEmulatorUrl());
        return { account: created.accountId, test_key: created.testKey, live_key: created.liveKey };
      }
      case 'account enable-live':
        if (!arg) throw new UsageError('account id required');
        if (!(await enableLive(db, arg))) throw new UsageError(`no account ${arg}`);
        return { account: arg, live_enabled: true };
      case 'account plan': {
        if (!arg) throw new UsageError('account id required');
        const raw = values['monthly-limit'];
        const limit = raw === 'none' ? null : Number(raw);
        if (limit !== null && !(Number.isInteger(limit) && limit >= 0)) throw new UsageError('--monthly-limit takes a whole number or none');
        if (!(await setMonthlyLimit(db, arg, limit))) throw new UsageError(`no account ${arg}`);
        return { account: arg, monthly_limit: limit };
      }
      case 'key create': {
        if (!arg) throw new UsageError('account id required');
        if (values.mode !== 'test' && values.mode !== 'live') throw new UsageError('--mode test|live is required');
        const key = await createApiKey(db, arg, values.mode).catch(() => {
          throw new UsageError(`no account ${arg}`);
        });
        return { account: arg, key: key.key, prefix: key.prefix, mode: values.mode };
      }
      case 'key revoke': {
        if (!arg) throw new UsageError('key prefix required');
        const revoked = await revokeApiKeys(db, arg);
        if (revoked.length === 0) throw new UsageError(`no active key with prefix ${arg}`);
        return { revoked };
      }
      default:
        throw new UsageError(`unknown command\n${USAGE}`);
    }
  } finally {
    await db.$client.end();
    await located.stop();
  }
}

main(process.argv.slice(2)).then(
  (out) => {
    process.stdout.write(`${JSON.stringify(out)}\n`);
  },
  (err: unknown) => {
    process.stdout.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
