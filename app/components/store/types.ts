import type { RouterOutputs } from '../trpc';

/** What stores.status answers for a connected store. */
export type StoreStatus = NonNullable<RouterOutputs['stores']['status']>;
