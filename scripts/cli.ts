import './check-config-first';
import { parseArgs } from 'node:util';
import { enableLive, setMonthlyLimit } from '@/server/accounts/account-settings';
import { createAccount } from '@/server/accounts/create-account';
import { type SellerData, ZSellerData } from '@/server/accounts/seller-data';
import { createApiKey, revokeApiKeys } from '@/server/api-keys/api-keys';
import { createDb } from '@/server/db/client';
import { describeError } from '@/server/db/describe-error';
import { locateDatabase } from '@/server/db/locate';
import { migrateDatabase } from '@/server/db/migrate';
import { resetConfig } from '@/server/config';
import { connectToEmulator } from '@/server/ksef-connection/emulator-credentials';
import { checkKsefConnectionWithin } from '@/server/ksef-connection/check-connection';
import { connectStore } from '@/server/stores/connect';
import { disconnectStore } from '@/server/stores/disconnect';
import { updateStoreSettings, ZStoreSettings } from '@/server/stores/settings';
import { syncStore } from '@/server/stores/sync';
import { followStackPolicy, ksefEmulatorUrl, loadAppSecret } from './stack-file';
import { AppError } from '@/server/errors';
import type { KsefNoticeRow } from '@/server/db/schema';
import { NOTICE_MODES } from '@/server/outage/modes';
import { addNotice, endNotice, listNotices } from '@/server/outage/notices';

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

/** The `group command` pairs of USAGE, checked before the database is opened. */
const COMMANDS = [...USAGE.matchAll(/^ {2}([\w-]+ [\w-]+)/gm)].map((m) => m[1]);

class UsageError extends Error {}

/** An ISO 8601 instant with its offset (`2026-03-02T10:00:00+01:00`): a notice's times are Warsaw times as published. */
function instant(flag: string, value: string): Date {
  if (!/T.*(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) throw new UsageError(`${flag} takes an ISO instant with an offset`);
  return new Date(value);
}

const noticeJson = (n: KsefNoticeRow) => ({
  id: n.id,
  mode: n.mode,
  start: n.startsAt.toISOString(),
  end: n.endsAt?.toISOString() ?? null,
  source: n.source,
  note: n.note,
});

const SELLER_FLAGS = { nip: 'seller-nip', name: 'seller-name', address1: 'seller-address1', address2: 'seller-address2' } as const;

/**
 * The seller of `account create`, checked field by field by the dashboard's rules (server/accounts/seller-data.ts):
 * a flag left out leaves that field for the dashboard (`--seller-nip` alone is enough for `--ksef-emulator`); a
 * given one that the rules refuse stops the command before anything is stored.
 */
function sellerFromFlags(values: Partial<Record<(typeof SELLER_FLAGS)[keyof typeof SELLER_FLAGS], string>>): Partial<SellerData> {
  const given = Object.fromEntries(Object.entries(SELLER_FLAGS).map(([field, flag]) => [field, values[flag]]));
  const parsed = ZSellerData.partial().safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `--${SELLER_FLAGS[i.path[0] as keyof typeof SELLER_FLAGS]}: ${i.message}`);
    throw new UsageError(`invalid seller data, nothing created: ${problems.join('; ')}`);
  }
  return parsed.data;
}

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
      url: { type: 'string' },
      'consumer-key': { type: 'string' },
      'consumer-secret': { type: 'string' },
      since: { type: 'string' },
      'invoice-statuses': { type: 'string' },
      'nip-meta-keys': { type: 'string' },
      'payment-methods': { type: 'string' },
      'no-customer-note': { type: 'boolean' },
      start: { type: 'string' },
      end: { type: 'string' },
      note: { type: 'string' },
    },
  });
  const [group, command, arg] = positionals;
  if (!COMMANDS.includes(`${group} ${command}`)) throw new UsageError(`unknown command\n${USAGE}`);
  loadAppSecret();
  followStackPolicy();
  const located = await locateDatabase({ reuseRunning: true });
  await migrateDatabase(located.url);
  const db = createDb(located.url, { max: 2 });
  try {
    switch (`${group} ${command}`) {
      case 'account create': {
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
      case 'store connect': {
        if (!arg) throw new UsageError('account id required');
        if (values.mode !== 'test' && values.mode !== 'live') throw new UsageError('--mode test|live is required');
        if (!values.url || !values['consumer-key'] || !values['consumer-secret'])
          throw new UsageError('--url, --consumer-key and --consumer-secret are required');
        const scope = { accountId: arg, mode: values.mode as 'test' | 'live' };
        const list = (v: string | undefined) =>
          v
            ?.split(',')
            .map((x) => x.trim())
            .filter(Boolean);
        const settings = {
          invoiceStatuses: list(values['invoice-statuses']),
          nipMetaKeys: list(values['nip-meta-keys']),
          paymentMethods: values['payment-methods']
            ? Object.fromEntries(list(values['payment-methods'])!.map((p) => p.split('=') as [string, string]))
            : undefined,
          customerNote: values['no-customer-note'] ? false : undefined,
        };
        const checked = ZStoreSettings.safeParse(settings);
        if (!checked.success) throw new UsageError(`store settings: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
        const connected = await connectStore(
          db,
          scope,
          { url: values.url, consumerKey: values['consumer-key'], consumerSecret: values['consumer-secret'] },
          { since: values.since },
        );
        await updateStoreSettings(db, scope, connected.store, checked.data);
        return connected;
      }
      case 'store disconnect':
        if (!arg) throw new UsageError('store id required');
        return await disconnectStore(db, arg);
      case 'store sync':
        if (!arg) throw new UsageError('store id required');
        return { store: arg, ...(await syncStore(db, arg)) };
      // a Ministry of Finance notice of a KSeF outage (server/outage): the mode, and the start and end it announces
      case 'ksef-notice add': {
        const mode = NOTICE_MODES.find((m) => m === values.mode);
        if (!mode) throw new UsageError(`--mode ${NOTICE_MODES.join('|')} is required`);
        if (!values.start) throw new UsageError('--start is required');
        const row = await addNotice(db, {
          mode,
          startsAt: instant('--start', values.start),
          endsAt: values.end ? instant('--end', values.end) : null,
          source: 'operator',
          note: values.note ?? null,
        }).catch((err: unknown) => {
          throw new UsageError(err instanceof Error ? err.message : String(err));
        });
        return { notice: noticeJson(row) };
      }
      case 'ksef-notice end': {
        const id = Number(arg);
        if (!Number.isInteger(id) || id <= 0) throw new UsageError('notice id required');
        const row = await endNotice(db, id, values.end ? instant('--end', values.end) : new Date()).catch((err: unknown) => {
          throw new UsageError(err instanceof Error ? err.message : String(err));
        });
        if (!row) throw new UsageError(`no notice ${id}`);
        return { notice: noticeJson(row) };
      }
      case 'ksef-notice list':
        return { notices: (await listNotices(db)).map(noticeJson) };
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
    const code = err instanceof AppError ? { code: err.code } : {};
    process.stdout.write(`${JSON.stringify({ error: describeError(err), ...code })}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
