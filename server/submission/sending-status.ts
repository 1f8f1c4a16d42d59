import { and, count, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { documents, type KsefEnvironment } from '@/server/db/schema';
import { KSEF_GROUPS, ksefLimitsFor, type KsefGroup } from '@/server/ksef-connection/rate-limits';
import { limiterOf, readBlocks, readWindowUsage, type WindowUsage } from '@/server/ksef-connection/throttle';
import { log } from '@/server/observability/log';
import { chooseSendMode, type SendMode } from './send-mode';
import { readKsefAccount, type KsefAccount } from './sending-scope';

export type SendingWindow = { group: KsefGroup; perSecond: number | null; perMinute: number | null; perHour: number | null; used: WindowUsage };

/** What the send step reads to choose its path: the queue depth and the budgets the choice looks at. */
export type SendDecision = {
  mode: SendMode;
  queueDepth: number;
  environment: KsefEnvironment;
  context: string | null;
  windows: SendingWindow[];
};

export type SendingStatus = SendDecision & {
  /** A Retry-After from KSeF still in force on any of the seller's limiters, else null. */
  blockedUntil: Date | null;
  /** 429 answers KSeF gave on the seller's limiters (should stay 0). */
  rateLimitedCount: number;
};

const shown = (v: number) => (Number.isFinite(v) ? v : null);

/** Documents of the scope waiting to be sent. */
export async function countQueued(db: Db, scope: Scope): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(documents)
    .where(and(inScope(documents, scope), eq(documents.status, 'queued')));
  return row?.n ?? 0;
}

/** The groups chooseSendMode reads: the interactive sends and the batch sessions. */
const DECISION_GROUPS = ['invoiceSend', 'batchSession'] as const satisfies KsefGroup[];

async function readSending(db: Db, scope: Scope, account: KsefAccount, groups: readonly KsefGroup[]): Promise<{ decision: SendDecision; limiters: string[] }> {
  const { environment, nip: context } = account;
  const key = { environment, context: context ?? '-' };
  const limiters = groups.map((g) => limiterOf(key, g, g));
  const [queueDepth, limits, usage] = await Promise.all([countQueued(db, scope), ksefLimitsFor(db, environment), readWindowUsage(db, limiters)]);
  const windows = groups.map((group, i) => {
    const l = limits[group];
    return { group, perSecond: shown(l.perSecond), perMinute: shown(l.perMinute), perHour: shown(l.perHour), used: usage.get(limiters[i]!)! };
  });
  const budget = (group: KsefGroup) => ({ limits: limits[group], used: windows.find((w) => w.group === group)!.used });
  const decision = { mode: chooseSendMode(queueDepth, budget('invoiceSend'), budget('batchSession')), queueDepth, environment, context, windows };
  return { decision, limiters };
}

/**
 * The send step's choice (send-mode.ts) from the two budgets it reads: counting the seller's other limiters and
 * their blocks, as the status page does, cost a statement over every request of the hour for each document sent.
 */
export async function getSendDecision(db: Db, scope: Scope, account: KsefAccount): Promise<SendDecision> {
  return (await readSending(db, scope, account, DECISION_GROUPS)).decision;
}

/**
 * Per seller (the dashboard's internal view, not part of the Account object): requests used in each window of
 * each KSeF endpoint group, the queue depth, any Retry-After block, and the mode the next send will use.
 */
export async function getSendingStatus(db: Db, scope: Scope): Promise<SendingStatus> {
  const { decision, limiters } = await readSending(
    db,
    scope,
    await readKsefAccount(db, scope),
    KSEF_GROUPS.filter((g) => g !== 'other'),
  );
  const blocks = await readBlocks(db, limiters);
  const now = Date.now();
  const active = [...blocks.values()].map((b) => b.blockedUntil).filter((d) => d.getTime() > now);
  return {
    ...decision,
    blockedUntil: active.length ? new Date(Math.max(...active.map((d) => d.getTime()))) : null,
    rateLimitedCount: [...blocks.values()].reduce((n, b) => n + b.rateLimitedCount, 0),
  };
}

/** One structured log line per send decision (worker logs are collected as JSON lines). */
export function logSendingStatus(scope: Scope, status: SendDecision, extra: Record<string, unknown> = {}): void {
  const windows = Object.fromEntries(status.windows.filter((w) => w.used.hour > 0).map((w) => [w.group, w.used]));
  log.info(
    {
      accountId: scope.accountId,
      mode: scope.mode,
      sendMode: status.mode,
      queueDepth: status.queueDepth,
      windows,
      ...extra,
    },
    'ksef_sending',
  );
}
