import './check-config-first';
import { parseArgs } from 'node:util';
import { createDb } from '@/server/db/client';
import { describeError } from '@/server/db/describe-error';
import { locateDatabase } from '@/server/db/locate';
import { migrateDatabase } from '@/server/db/migrate';
import { AppError } from '@/server/errors';
import { accountCreate, accountEnableLive, accountPlan } from './cli-account';
import { CLI_OPTIONS, type CliCommand, UsageError } from './cli-args';
import { keyCreate, keyRevoke } from './cli-key';
import { noticeAdd, noticeEnd, noticeList } from './cli-ksef-notice';
import { storeConnect, storeDisconnect, storeSync } from './cli-store';
import { followStackPolicy, loadAppSecret } from './stack-file';

/** `npm run cli -- <group> <command> …`: each command prints one JSON line on stdout (tests and e2e read it). */
const USAGE = `usage:
  account create --email E [--password P] [--seller-nip N --seller-name S --seller-address1 A1 --seller-address2 A2] [--ksef-emulator]
  account enable-live ACCT
  account plan ACCT --monthly-limit N|none
  key create ACCT --mode test|live
  key revoke KEY_PREFIX
  store connect ACCT --mode test|live --url URL --consumer-key K --consumer-secret S [--since YYYY-MM-DD]
      [--invoice-statuses processing,completed] [--nip-meta-keys _billing_nip,…] [--payment-methods gateway=transfer,…] [--no-customer-note]
  store disconnect ST
  store sync ST
  ksef-notice add --mode unavailable|failure|total_failure --start ISO [--end ISO] [--note TEXT]
  ksef-notice end ID [--end ISO]
  ksef-notice list`;

/** The commands of USAGE by `group command`, checked before the database is opened. */
const HANDLERS: Record<string, CliCommand> = {
  'account create': accountCreate,
  'account enable-live': accountEnableLive,
  'account plan': accountPlan,
  'key create': keyCreate,
  'key revoke': keyRevoke,
  'store connect': storeConnect,
  'store disconnect': storeDisconnect,
  'store sync': storeSync,
  'ksef-notice add': noticeAdd,
  'ksef-notice end': noticeEnd,
  'ksef-notice list': noticeList,
};

async function main(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: CLI_OPTIONS });
  const [group, command, arg] = positionals;
  const handler = Object.hasOwn(HANDLERS, `${group} ${command}`) ? HANDLERS[`${group} ${command}`] : undefined;
  if (!handler) throw new UsageError(`unknown command\n${USAGE}`);
  loadAppSecret();
  followStackPolicy();
  const located = await locateDatabase({ reuseRunning: true });
  await migrateDatabase(located.url);
  const db = createDb(located.url, { max: 2 });
  try {
    return await handler(db, arg, values);
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
    const code = err instanceof AppError ? { code: err.code } : {};
    process.stdout.write(`${JSON.stringify({ error: describeError(err), ...code })}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
