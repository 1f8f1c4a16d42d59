import { and, count, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes, documents, type KsefEnvironment } from '@/server/db/schema';
import { KSEF_GROUPS, ksefLimitsFor, type KsefGroup } from './rate-limits';
import { chooseSendMode, type SendMode } from './send-mode';
import { limiterOf, readBlocks, readWindowUsage, type WindowUsage } from './throttle';
import { log } from '@/server/observability/log';

export type SendingWindow = { group: KsefGroup; perSecond: number | null; perMinute: number | null; perHour: number | null; used: WindowUsage };

export type SendingStatus = {
  mode: SendMode;
  queueDepth: number;
  environment: KsefEnvironment;
  context: string | null;
  windows: SendingWindow[];
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

/**
 * Per seller (the dashboard's internal view, not part of the Account object): requests used in each window of
 * each KSeF endpoint group, the queue depth, any Retry-After block, and the mode the next send will use.
 */
export async function getSendingStatus(db: Db, scope: Scope): Promise<SendingStatus> {
  const [mode] = await db
    .select({ nip: accountModes.sellerNip, environment: accountModes.ksefEnvironment })
    .from(accountModes)
    .where(inScope(accountModes, scope));
  const environment = mode?.environment ?? 'test';
  const context = mode?.nip ?? null;
  const key = { environment, context: context ?? '-' };
  const groups = KSEF_GROUPS.filter((g) => g !== 'other');
  const limiters = groups.map((g) => limiterOf(key, g, g));
  const [queueDepth, limits, usage, blocks] = await Promise.all([
    countQueued(db, scope),
    ksefLimitsFor(db, environment),
    readWindowUsage(db, limiters),
    readBlocks(db, limiters),
  ]);
  const windows = groups.map((group, i) => {
    const l = limits[group];
    return { group, perSecond: shown(l.perSecond), perMinute: shown(l.perMinute), perHour: shown(l.perHour), used: usage.get(limiters[i]!)! };
  });
  const now = Date.now();
  const active = [...blocks.values()].map((b) => b.blockedUntil).filter((d) => d.getTime() > now);
  const invoiceSend = windows.find((w) => w.group === 'invoiceSend')!;
  const batchSession = windows.find((w) => w.group === 'batchSession')!;
  return {
    mode: chooseSendMode(queueDepth, { limits: limits.invoiceSend, used: invoiceSend.used }, { limits: limits.batchSession, used: batchSession.used }),
    queueDepth,
    environment,
    context,
    windows,
    blockedUntil: active.length ? new Date(Math.max(...active.map((d) => d.getTime()))) : null,
    rateLimitedCount: [...blocks.values()].reduce((n, b) => n + b.rateLimitedCount, 0),
  };
}

/** One structured log line per send decision (worker logs are collected as JSON lines). */
export function logSendingStatus(scope: Scope, status: SendingStatus, extra: Record<string, unknown> = {}): void {
  const windows = Object.fromEntries(status.windows.filter((w) => w.used.hour > 0).map((w) => [w.group, w.used]));
  log.info(
    {
      accountId: scope.accountId,
      mode: scope.mode,
      sendMode: status.mode,
      queueDepth: status.queueDepth,
      windows,
      blockedUntil: status.blockedUntil,
      ...extra,
    },
    'ksef_sending',
  );
}
