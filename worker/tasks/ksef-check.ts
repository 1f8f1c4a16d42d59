import { sql } from 'drizzle-orm';
import { followKsefStatus } from '@/server/outage/status-source';
import { checkKsefConnection } from '@/server/ksef-connection/check-connection';
import type { TaskHandler } from './task';

/**
 * ksef_check: authenticates with a scope's credential (after a change), or, from the cron with no payload,
 * re-checks every connected scope not checked for an hour, after reading the KSeF status service (KSEF_STATUS_URL;
 * server/outage/status-source.ts), whose outages open and end Ministry notices.
 */
export const ksefCheck: TaskHandler<'ksef_check'> = (db) => async (job) => {
  if (job.accountId && job.mode) {
    await checkKsefConnection(db, { accountId: job.accountId, mode: job.mode });
    return;
  }
  await followKsefStatus(db, new Date());
  const due = await db.execute<{ account_id: string; mode: 'test' | 'live' }>(sql`
      select account_id, mode from account_modes
      where ksef_credential is not null and (ksef_checked_at is null or ksef_checked_at < now() - interval '1 hour')
      limit 100`);
  for (const s of due) await checkKsefConnection(db, { accountId: s.account_id, mode: s.mode });
};
