import type { StorePlatform, StorePlatformId } from './platform';
import { woocommerce } from './woocommerce/platform';

/** Every platform's adapter, by store_connections.platform. */
const PLATFORMS: Record<StorePlatformId, StorePlatform> = { woocommerce };

export const platformOf = (store: { platform: StorePlatformId }): StorePlatform => PLATFORMS[store.platform];
