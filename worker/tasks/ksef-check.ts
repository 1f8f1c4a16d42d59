import type { Task } from 'graphile-worker';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../server/db/client';
import { checkKsefConnection } from '../../server/submission/check-connection';

const ZCheckJob = z.object({ accountId: z.string().min(1), mode: z.enum(['test', 'live']) }).partial();

/**
 * ksef_check: authenticates with a scope's credential (after a change), or, from the cron with no payload,
 * re-checks every connected scope not checked for an hour.
 */
export const ksefCheck =
  (db: Db): Task =>
  async (payload) => {
    const job = ZCheckJob.parse(payload ?? {});
    if (job.accountId && job.mode) {
      await checkKsefConnection(db, { accountId: job.accountId, mode: job.mode });
      return;
    }
    const due = await db.execute<{ account_id: string; mode: 'test' | 'live' }>(sql`
      select account_id, mode from account_modes
      where ksef_credential is not null and (ksef_checked_at is null or ksef_checked_at < now() - interval '1 hour')
      limit 100`);
    for (const s of due) await checkKsefConnection(db, { accountId: s.account_id, mode: s.mode });
  };
