import type { RouterOutputs } from '../trpc';

/** What members.list answers; undefined while it loads. */
export type MembersData = RouterOutputs['members']['list'] | undefined;
