import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { NOTICE_MODES } from '@/server/outage/mode-names';

/**
 * The Ministry of Finance's announcements of KSeF outages (server/outage): an unavailability (art. 106nh), a failure
 * (art. 106nf) or a total failure (art. 106ng), from its start to its end (null while the Ministry has given none).
 * The operator enters them from the Ministry's notices (`npm run cli -- ksef-notice`); the status service
 * (KSEF_STATUS_URL) opens one when it stops answering AVAILABLE and ends it when it answers so again. They are
 * KSeF-wide: every seller's documents read the same list.
 */
export const ksefNotices = pgTable(
  'ksef_notices',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    mode: text({ enum: NOTICE_MODES }).notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }),
    source: text({ enum: ['operator', 'status_service'] }).notNull(),
    /** The notice's reference or a few words of it, as the operator typed it. */
    note: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ksef_notices_starts_at_idx').on(t.startsAt)],
);

export type KsefNoticeRow = typeof ksefNotices.$inferSelect;
