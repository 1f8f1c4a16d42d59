/**
 * Request limits per (context, client IP) with sliding windows of 1 s, 1 min and 1 h (README §11).
 * Groups and production values come from the OpenAPI `x-rate-limits`; the test environment's values are
 * ten times those (limity-api.md; the 2.5.0 changelog says TE now equals PRD, so 'prod' is there to mimic that).
 * The two close groups are those of the 2.8.0 changelog (closing a session has its own limit).
 */
export type LimitsMode = 'test' | 'prod' | 'off';
type Values = { perSecond: number; perMinute: number; perHour: number };

export const PROD_LIMITS: Record<string, Values> = {
  public: { perSecond: 60, perMinute: Infinity, perHour: Infinity },
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
  other: { perSecond: 10, perMinute: 30, perHour: 120 },
};

export type LimitsState = { mode: LimitsMode; windows: Map<string, number[]> };

export const createLimitsState = (mode: LimitsMode): LimitsState => ({ mode, windows: new Map() });

export function limitValues(mode: LimitsMode, group: string): Values | undefined {
  if (mode === 'off' || group === 'none') return undefined;
  const prod = PROD_LIMITS[group] ?? PROD_LIMITS.other;
  if (!prod) return undefined;
  const k = mode === 'test' ? 10 : 1;
  return { perSecond: prod.perSecond * k, perMinute: prod.perMinute * k, perHour: prod.perHour * k };
}

/** Index of the first timestamp >= from in a sorted array. */
function firstAtOrAfter(ts: number[], from: number): number {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ts[mid] ?? 0) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export type LimitVerdict = { ok: true } | { ok: false; retryAfterSeconds: number; detail: string };

/**
 * Counts one request of `counter` (the group, or the operation for groups counted per endpoint) for
 * (context, ip). Refused requests are not counted, so a client that waits Retry-After gets through.
 */
export function consumeLimit(state: LimitsState, group: string, counter: string, context: string, ip: string, now = Date.now()): LimitVerdict {
  const values = limitValues(state.mode, group);
  if (!values) return { ok: true };
  const key = `${counter}|${context}|${ip}`;
  let ts = state.windows.get(key);
  if (!ts) state.windows.set(key, (ts = []));
  const drop = firstAtOrAfter(ts, now - 3_600_000);
  if (drop > 0) ts.splice(0, drop);
  const windows: [number, number, string][] = [
    [1_000, values.perSecond, 'na sekundę'],
    [60_000, values.perMinute, 'na minutę'],
    [3_600_000, values.perHour, 'na godzinę'],
  ];
  for (const [span, max, label] of windows) {
    const start = firstAtOrAfter(ts, now - span + 1); // a request exactly `span` ago has left the window
    if (ts.length - start >= max) {
      // The window frees a slot when its oldest counted request leaves it.
      const oldest = ts[ts.length - max] ?? now;
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + span - now) / 1000));
      return { ok: false, retryAfterSeconds, detail: `Przekroczono limit ${max} żądań ${label}. Spróbuj ponownie po ${retryAfterSeconds} sekundach.` };
    }
  }
  ts.push(now);
  return { ok: true };
}
