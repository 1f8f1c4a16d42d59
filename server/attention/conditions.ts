import { sql, type SQL } from 'drizzle-orm';
import { AT_RISK_MS } from '@/server/calendar/offline-deadline';
import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import type { Mode } from '@/server/db/schema';
import { NOT_CHECKED_YET } from '@/server/ksef-connection/credentials';
import { EXPIRY_WARNING_MS } from '@/server/ksef-connection/offline-certificate';
import type { AttentionKind } from './kinds';

/** A condition found in one account and mode: how many things (documents, endpoints, certificates…) it covers. */
export type Found = { accountId: string; mode: Mode; count: number; limit?: number };

export type Condition = {
  kind: AttentionKind;
  /** The dashboard page where the merchant fixes it; null when the overview itself shows the facts. */
  href: string | null;
  /** Every account and mode with the condition at `now`, or only `scope`'s (invariant 5: the dashboard's reads). */
  find: (db: DbOrTx, now: Date, scope?: Scope) => Promise<Found[]>;
};

/** Failed documents stay on the list this long: error and rejected are final, nothing else takes them off. */
export const FAILED_DOCUMENTS_WINDOW_MS = 30 * 86_400_000;

/** A webhook endpoint counts as failing once this attempt of a delivery failed too (first try and two retries, 6 min). */
export const WEBHOOK_FAILING_ATTEMPT = 3;

/** Deliveries older than this say nothing about the endpoint now. */
const WEBHOOK_RECENT_MS = 7 * 86_400_000;

/** KSeF warnings (X-System-Warning) of one seller context within a day from which the merchant is told. */
export const KSEF_WARNINGS_REPEATING = { count: 3, windowMs: 86_400_000 };

/** The live plan's share of the monthly limit from which the merchant is told. */
export const PLAN_NEAR_SHARE = 0.8;

/**
 * Why a connected store needs the merchant, each a condition on `s` (store_connections): the last reconciliation
 * failed (the store unreachable or refusing our keys), or one of our webhooks in the store was last seen not
 * active. A new reason (e.g. a write-back the pipeline gave up) is one more entry here.
 */
export const STORE_PROBLEMS: SQL[] = [
  sql`s.last_sync_result ? 'error'`,
  sql`exists (select 1 from store_webhooks w where w.store_id = s.id and w.status <> 'active')`,
  // a write-back that gave up (order deleted, key revoked: server/stores/writeback.ts) until the merchant reconnects
  sql`exists (select 1 from store_documents d where d.store_id = s.id and d.gave_up_at is not null)`,
];

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const ago = (now: Date, ms: number) => at(new Date(now.getTime() - ms));
const ahead = (now: Date, ms: number) => at(new Date(now.getTime() + ms));

/** `and <alias>.account_id = … and <alias>.mode = …`, or nothing when every scope is asked for. */
const inScope = (alias: string, scope?: Scope): SQL =>
  scope ? sql`and ${sql.raw(alias)}.account_id = ${scope.accountId} and ${sql.raw(alias)}.mode = ${scope.mode}` : sql``;

type Row = { account_id: string; mode: Mode; n: number; limit?: number | null };

async function rows(db: DbOrTx, query: SQL): Promise<Found[]> {
  const found = await db.execute<Row>(query);
  return [...found].map((r) => ({ accountId: r.account_id, mode: r.mode, count: Number(r.n), ...(r.limit != null && { limit: Number(r.limit) }) }));
}

const documentsIn =
  (status: 'error' | 'rejected'): Condition['find'] =>
  (db, now, scope) =>
    rows(
      db,
      sql`select d.account_id, d.mode, count(*)::int as n from documents d
      where d.status = ${status} and d.updated_at >= ${ago(now, FAILED_DOCUMENTS_WINDOW_MS)} ${inScope('d', scope)}
      group by 1, 2`,
    );

/**
 * The conditions that need the merchant (DESIGN.md invariant 10): the dashboard's attention list, the e-mails and
 * the operator's gauges all read this table, so a new condition is one entry (and its kind in kinds.ts).
 */
export const CONDITIONS: Condition[] = [
  {
    // the connection check failed with a saved credential (a missing one is the setup checklist's step)
    kind: 'ksef_credentials_failing',
    href: '/dashboard/ksef',
    find: (db, _now, scope) =>
      rows(
        db,
        sql`select m.account_id, m.mode, 1 as n from account_modes m
          where m.ksef_credential is not null and m.ksef_check_error is not null and m.ksef_check_error <> ${NOT_CHECKED_YET} ${inScope('m', scope)}`,
      ),
  },
  {
    // certificates by their notAfter (the KSeF login certificate, the Offline certificate for KOD II), and KSeF tokens
    // issued until 31.12.2026, which stop working on 30.11.2027 (server/ksef-connection/credential-expiry.ts)
    kind: 'ksef_credentials_expiring',
    href: '/dashboard/ksef',
    find: (db, now, scope) => {
      const soon = ahead(now, EXPIRY_WARNING_MS);
      return rows(
        db,
        sql`select m.account_id, m.mode,
            (case when m.ksef_credential is not null and m.ksef_credential_valid_to <= ${soon} then 1 else 0 end
             + case when m.offline_certificate is not null and m.offline_certificate_valid_to <= ${soon} then 1 else 0 end)::int as n
          from account_modes m
          where ((m.ksef_credential is not null and m.ksef_credential_valid_to <= ${soon})
            or (m.offline_certificate is not null and m.offline_certificate_valid_to <= ${soon})) ${inScope('m', scope)}`,
      );
    },
  },
  {
    // offline24 (art. 106nda): not yet numbered by KSeF, the deadline within AT_RISK_MS or past (the overview's panel)
    kind: 'offline_deadline',
    href: '/dashboard/invoices',
    find: (db, now, scope) =>
      rows(
        db,
        sql`select d.account_id, d.mode, count(*)::int as n from documents d
          where d.offline_mode and d.ksef_number is null and d.status not in ('skipped', 'error')
            and (d.offline_deadline_missed or d.offline_deadline <= ${ahead(now, AT_RISK_MS)}) ${inScope('d', scope)}
          group by 1, 2`,
      ),
  },
  { kind: 'documents_error', href: '/dashboard/invoices?status=error', find: documentsIn('error') },
  { kind: 'documents_rejected', href: '/dashboard/invoices?status=rejected', find: documentsIn('rejected') },
  {
    // enabled endpoints whose latest delivery attempt failed after retries, or was the last one (spec 6.2); a test
    // event's failure was shown to the person who sent it
    kind: 'webhooks_failing',
    href: '/dashboard/webhooks',
    find: (db, now, scope) =>
      rows(
        db,
        sql`select e.account_id, e.mode, count(*)::int as n from webhook_endpoints e
          cross join lateral (select d.delivered, d.attempt, d.next_attempt_at, d.at from webhook_deliveries d
            where d.endpoint_id = e.id and d.test_event_id is null order by d.id desc limit 1) last
          where e.status = 'enabled' and last.delivered = 'no' and last.at >= ${ago(now, WEBHOOK_RECENT_MS)}
            and (last.attempt >= ${WEBHOOK_FAILING_ATTEMPT} or last.next_attempt_at is null) ${inScope('e', scope)}
          group by 1, 2`,
      ),
  },
  {
    // KSeF accepted, but warned (API 2.6.0 X-System-Warning: "may be rejected later") repeatedly: worth a look before
    // the rule behind it starts refusing; each warning is on its document's detail page
    kind: 'ksef_warnings_repeating',
    href: '/dashboard/invoices',
    find: (db, now, scope) =>
      rows(
        db,
        sql`select m.account_id, m.mode, count(*)::int as n from account_modes m
          join ksef_warnings w on w.context = m.seller_nip and w.environment = m.ksef_environment
          where w.at > ${ago(now, KSEF_WARNINGS_REPEATING.windowMs)} and w.at <= ${at(now)} ${inScope('m', scope)}
          group by 1, 2 having count(*) >= ${KSEF_WARNINGS_REPEATING.count}`,
      ),
  },
  {
    kind: 'store_failing',
    href: '/dashboard/store',
    find: (db, _now, scope) =>
      rows(
        db,
        sql`select s.account_id, s.mode, 1 as n from store_connections s
          where s.status = 'connected' and (${sql.join(STORE_PROBLEMS, sql` or `)}) ${inScope('s', scope)}`,
      ),
  },
  {
    // live only: test documents do not count toward the plan (spec 1); the FV counter is the month's invoices
    kind: 'plan_limit_near',
    href: null,
    find: (db, now, scope) =>
      rows(
        db,
        sql`select m.account_id, m.mode, c.value as n, m.monthly_limit as "limit" from account_modes m
          join number_counters c on c.account_id = m.account_id and c.mode = m.mode and c.series = 'FV'
            and c.period = to_char(${at(now)} at time zone 'Europe/Warsaw', 'YYYY-MM')
          where m.mode = 'live' and m.monthly_limit is not null and c.value >= m.monthly_limit * ${PLAN_NEAR_SHARE}::float8
            ${inScope('m', scope)}`,
      ),
  },
];
