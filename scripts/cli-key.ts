import { createApiKey, revokeApiKeys } from '@/server/api-keys/api-keys';
import { type CliCommand, UsageError } from './cli-args';

export const keyCreate: CliCommand = async (db, arg, values) => {
  if (!arg) throw new UsageError('account id required');
  if (values.mode !== 'test' && values.mode !== 'live') throw new UsageError('--mode test|live is required');
  const key = await createApiKey(db, arg, values.mode).catch(() => {
    throw new UsageError(`no account ${arg}`);
  });
  return { account: arg, key: key.key, prefix: key.prefix, mode: values.mode };
};

export const keyRevoke: CliCommand = async (db, arg) => {
  if (!arg) throw new UsageError('key prefix required');
  const revoked = await revokeApiKeys(db, arg);
  if (revoked.length === 0) throw new UsageError(`no active key with prefix ${arg}`);
  return { revoked };
};
