import type { DocumentStatus } from '../../server/db/schema/enums';

/** Spec §3 statuses in the order the dashboard lists them (kept here so the browser bundle has no drizzle). */
export const STATUSES: readonly DocumentStatus[] = ['pending', 'queued', 'sending', 'accepted', 'rejected', 'skipped', 'waiting_for_plan_limit', 'error'];
export const IN_FLIGHT: readonly DocumentStatus[] = ['pending', 'queued', 'sending'];
