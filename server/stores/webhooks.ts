import { config } from '@/server/config';
import type { DbOrTx } from '@/server/db/client';
import { storeWebhooks } from '@/server/db/schema';
import { randomToken } from '@/server/ids';
import { sealWebhookSecret } from '@/server/webhooks/webhook-secret';
import type { StoreApi, StorePlatform } from './platform';

/** Where the platform's deliveries of a store arrive: app/hooks/{platform}/[store]/route.ts. */
export const deliveryUrl = (platform: StorePlatform, storeId: string, base = config().PUBLIC_BASE_URL) =>
  `${base.replace(/\/$/, '')}/hooks/${platform.id}/${storeId}`;

/**
 * Registers one webhook in the store with a fresh secret and keeps it (sealed). The secret is base62 only, so
 * WordPress's entity decoding of the key leaves it unchanged (woocommerce-rules.md §1.3). WooCommerce pings the
 * delivery URL inside the create call.
 */
export async function registerWebhook(
  db: DbOrTx,
  platform: StorePlatform,
  api: StoreApi,
  storeId: string,
  topic: string,
  base: string | undefined,
  note: string | null = null,
) {
  const secret = randomToken(256);
  const created = await api.createWebhook({ name: `KSeF Relay ${storeId} ${topic}`, topic, deliveryUrl: deliveryUrl(platform, storeId, base), secret });
  await db
    .insert(storeWebhooks)
    .values({ storeId, remoteId: created.id, topic, secret: sealWebhookSecret(secret), status: created.status, note, checkedAt: new Date() });
  return { id: created.id, topic, status: created.status };
}
