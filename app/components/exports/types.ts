import type { RouterOutputs } from '../trpc';

/** What exports.summary answers for the chosen month; undefined while it loads. */
export type ExportSummary = RouterOutputs['exports']['summary'] | undefined;
