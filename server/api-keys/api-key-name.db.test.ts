import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { createApiKey } from './api-keys';
import { listApiKeys } from './list-api-keys';
import { renameApiKey } from './rename-api-key';
import { revokeApiKey } from './revoke-api-key';

const t = useTestDatabase();

test('a key is named at creation, renamed, cleared, and listed with its name', async () => {
  const acct = await createTestAccount(t.db());
  const scope = acct.testScope;
  const shop = await createApiKey(t.db(), scope.accountId, 'test', 'Sklep WooCommerce');
  const names = async () => new Map((await listApiKeys(t.db(), scope)).map((k) => [k.id, k.name]));
  expect((await names()).get(shop.id)).toBe('Sklep WooCommerce');
  await renameApiKey(t.db(), scope, shop.id, 'ERP');
  expect((await names()).get(shop.id)).toBe('ERP');
  await renameApiKey(t.db(), scope, shop.id, null);
  expect((await names()).get(shop.id)).toBeNull();
  // the account's first key (made at sign-up) has no name
  expect([...(await names()).values()]).toEqual([null, null]);
});

test("another account's, another mode's or a revoked key cannot be renamed", async () => {
  const a = await createTestAccount(t.db());
  const b = await createTestAccount(t.db());
  const key = await createApiKey(t.db(), a.accountId, 'test', 'A');
  await expect(renameApiKey(t.db(), b.testScope, key.id, 'B')).rejects.toMatchObject({ code: 'resource_missing', param: 'id' });
  await expect(renameApiKey(t.db(), { accountId: a.accountId, mode: 'live' }, key.id, 'B')).rejects.toMatchObject({ code: 'resource_missing' });
  await revokeApiKey(t.db(), a.testScope, key.id);
  await expect(renameApiKey(t.db(), a.testScope, key.id, 'B')).rejects.toMatchObject({ code: 'resource_missing' });
});
