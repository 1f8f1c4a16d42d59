import type { RouterOutputs } from '../trpc';

/** What account.overview answers; undefined while it loads (each card keeps its size meanwhile). */
export type OverviewData = RouterOutputs['account']['overview'] | undefined;
