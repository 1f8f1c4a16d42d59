import { connectStore } from '@/server/stores/connect';
import { disconnectStore } from '@/server/stores/disconnect';
import { updateStoreSettings, ZStoreSettings } from '@/server/stores/settings';
import { syncStore } from '@/server/stores/sync';
import { type CliCommand, type CliValues, UsageError } from './cli-args';

const list = (v: string | undefined) =>
  v
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The store settings `store connect` takes from its flags, checked as the dashboard checks them. */
function settingsFromFlags(values: CliValues) {
  const settings = {
    invoiceStatuses: list(values['invoice-statuses']),
    nipMetaKeys: list(values['nip-meta-keys']),
    paymentMethods: values['payment-methods'] ? Object.fromEntries(list(values['payment-methods'])!.map((p) => p.split('=') as [string, string])) : undefined,
    customerNote: values['no-customer-note'] ? false : undefined,
  };
  const checked = ZStoreSettings.safeParse(settings);
  if (!checked.success) throw new UsageError(`store settings: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return checked.data;
}

export const storeConnect: CliCommand = async (db, arg, values) => {
  if (!arg) throw new UsageError('account id required');
  if (values.mode !== 'test' && values.mode !== 'live') throw new UsageError('--mode test|live is required');
  if (!values.url || !values['consumer-key'] || !values['consumer-secret']) throw new UsageError('--url, --consumer-key and --consumer-secret are required');
  const scope = { accountId: arg, mode: values.mode as 'test' | 'live' };
  const settings = settingsFromFlags(values);
  const connected = await connectStore(
    db,
    scope,
    { url: values.url, consumerKey: values['consumer-key'], consumerSecret: values['consumer-secret'] },
    { since: values.since },
  );
  await updateStoreSettings(db, scope, connected.store, settings);
  return connected;
};

export const storeDisconnect: CliCommand = async (db, arg) => {
  if (!arg) throw new UsageError('store id required');
  return await disconnectStore(db, arg);
};

export const storeSync: CliCommand = async (db, arg) => {
  if (!arg) throw new UsageError('store id required');
  return { store: arg, ...(await syncStore(db, arg)) };
};
