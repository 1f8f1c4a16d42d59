import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { ksefRateLimits, type KsefEnvironment } from '@/server/db/schema';

export type LimitValues = { perSecond: number; perMinute: number; perHour: number };

/**
 * KSeF's per-endpoint-group limits (README §11, OpenAPI x-rate-limits). Production values; TE was aligned with
 * them in API 2.5.0 and DEMO mirrors production, so every environment starts from this table. `null` = no limit.
 * Closing a session counts in its own group since API 2.8.0 (api-changelog.md 2.8.0, PROD 23.09.2026; not yet in
 * shared/ksef's 2.6.0 OpenAPI): online close 20/60/240, batch close 20/40/120.
 */
export const PRODUCTION_LIMITS = {
  public: { perSecond: 60, perMinute: null, perHour: null },
  onlineSession: { perSecond: 10, perMinute: 30, perHour: 120 },
  invoiceSend: { perSecond: 10, perMinute: 30, perHour: 180 },
  onlineSessionClose: { perSecond: 20, perMinute: 60, perHour: 240 },
  batchSession: { perSecond: 10, perMinute: 20, perHour: 60 },
  batchSessionClose: { perSecond: 20, perMinute: 40, perHour: 120 },
  invoiceStatus: { perSecond: 30, perMinute: 120, perHour: 1200 },
  sessionList: { perSecond: 5, perMinute: 10, perHour: 60 },
  sessionInvoiceList: { perSecond: 10, perMinute: 20, perHour: 200 },
  sessionMisc: { perSecond: 10, perMinute: 120, perHour: 1200 },
  invoiceDownload: { perSecond: 8, perMinute: 16, perHour: 64 },
  invoiceMetadata: { perSecond: 8, perMinute: 16, perHour: 20 },
  invoiceExportStatus: { perSecond: 10, perMinute: 60, perHour: 600 },
  other: { perSecond: 10, perMinute: 30, perHour: 120 },
} as const satisfies Record<string, { perSecond: number; perMinute: number | null; perHour: number | null }>;

export type KsefGroup = keyof typeof PRODUCTION_LIMITS;
export const KSEF_GROUPS = Object.keys(PRODUCTION_LIMITS) as KsefGroup[];

/** The endpoint group of a KSeF call and the counter it uses ("other" counts each endpoint on its own). */
export type EndpointGroup = { group: KsefGroup; counter: string };

const SEGMENT = '[^/]+';
const RULES: [string, RegExp, KsefGroup][] = [
  ['POST', /^\/sessions\/online$/, 'onlineSession'],
  ['POST', new RegExp(`^/sessions/online/${SEGMENT}/close$`), 'onlineSessionClose'],
  ['POST', new RegExp(`^/sessions/online/${SEGMENT}/invoices$`), 'invoiceSend'],
  ['POST', /^\/sessions\/batch$/, 'batchSession'],
  ['POST', new RegExp(`^/sessions/batch/${SEGMENT}/close$`), 'batchSessionClose'],
  ['GET', /^\/sessions$/, 'sessionList'],
  ['GET', new RegExp(`^/sessions/${SEGMENT}/invoices(/failed)?$`), 'sessionInvoiceList'],
  ['GET', new RegExp(`^/sessions/${SEGMENT}/invoices/(ksef/${SEGMENT}|${SEGMENT})/upo$`), 'sessionMisc'],
  ['GET', new RegExp(`^/sessions/${SEGMENT}/upo/${SEGMENT}$`), 'sessionMisc'],
  ['GET', new RegExp(`^/sessions/${SEGMENT}/invoices/${SEGMENT}$`), 'invoiceStatus'],
  ['GET', new RegExp(`^/sessions/${SEGMENT}$`), 'sessionMisc'],
  ['GET', new RegExp(`^/invoices/ksef/${SEGMENT}$`), 'invoiceDownload'],
  ['POST', /^\/invoices\/(query\/metadata|exports)$/, 'invoiceMetadata'],
  ['GET', new RegExp(`^/invoices/exports/${SEGMENT}$`), 'invoiceExportStatus'],
];

/**
 * Group of a call, from its method and its path below the API base (`/sessions/online`). Pre-signed upload and
 * download URLs are outside the API and not limited: the caller passes no path for them.
 */
export function ksefEndpointGroup(method: string, path: string): EndpointGroup {
  const m = method.toUpperCase();
  if (/^\/(auth(\/|$)|security\/public-key-certificates$|testdata\/(subject|person|permissions|attachment))/.test(path))
    return { group: 'public', counter: 'public' };
  for (const [ruleMethod, pattern, group] of RULES) if (ruleMethod === m && pattern.test(path)) return { group, counter: group };
  const template = path.replace(/\/\d{8}-[A-Z]{2}-[0-9A-F-]+/g, '/{ref}');
  return { group: 'other', counter: `other:${m} ${template}` };
}

const CACHE_MS = 5_000;
const cache = new WeakMap<object, Map<KsefEnvironment, { at: number; limits: Record<KsefGroup, LimitValues> }>>();

const finite = (v: number | null): number => v ?? Number.POSITIVE_INFINITY;

/** The limits in force for an environment: the built-in table overlaid with the operator's rows (cached 5 s). */
export async function ksefLimitsFor(db: DbOrTx, environment: KsefEnvironment, now = Date.now()): Promise<Record<KsefGroup, LimitValues>> {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  const hit = perDb.get(environment);
  if (hit && now - hit.at < CACHE_MS) return hit.limits;
  const limits = Object.fromEntries(
    KSEF_GROUPS.map((g) => [
      g,
      { perSecond: finite(PRODUCTION_LIMITS[g].perSecond), perMinute: finite(PRODUCTION_LIMITS[g].perMinute), perHour: finite(PRODUCTION_LIMITS[g].perHour) },
    ]),
  ) as Record<KsefGroup, LimitValues>;
  const rows = await db.select().from(ksefRateLimits).where(eq(ksefRateLimits.environment, environment));
  for (const r of rows) if (r.group in limits) limits[r.group as KsefGroup] = { perSecond: r.perSecond, perMinute: r.perMinute, perHour: r.perHour };
  perDb.set(environment, { at: now, limits });
  return limits;
}

/** Sets a group's limits for an environment (the Ministry adjusts them); every worker sees it within 5 s. */
export async function setKsefLimits(db: DbOrTx, environment: KsefEnvironment, group: KsefGroup, values: LimitValues): Promise<void> {
  await db
    .insert(ksefRateLimits)
    .values({ environment, group, ...values })
    .onConflictDoUpdate({ target: [ksefRateLimits.environment, ksefRateLimits.group], set: { ...values, updatedAt: sql`now()` } });
  cache.get(db)?.delete(environment);
}
