import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { modeEnum } from './enums';

/**
 * What the attention e-mails (server/attention/notify-attention.ts) told an account and mode, per condition kind:
 * when its first e-mail went, when a digest last carried it, and when it cleared (kept, so a condition that
 * flaps does not mail at once every time it comes back).
 */
export const attentionNotices = pgTable(
  'attention_notices',
  {
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    kind: text().notNull(),
    firstNotifiedAt: timestamp({ withTimezone: true }).notNull(),
    lastDigestAt: timestamp({ withTimezone: true }),
    clearedAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.mode, t.kind] })],
);
