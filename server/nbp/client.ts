import { z } from 'zod';
import { config } from '@/server/config';
import { addDays, isIsoDate } from '@/server/calendar/date-text';

/** NBP did not answer usefully (network, time-out, 5xx, garbage): retry later, never guess a rate. */
export class NbpUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NbpUnavailableError';
  }
}

/** NBP answered, but table A has no rate for the currency in the whole look-back window. */
export class NbpRateNotFoundError extends Error {
  constructor(
    readonly currency: string,
    readonly date: string,
  ) {
    super(`NBP table A has no ${currency} rate in the 30 days before ${date}`);
    this.name = 'NbpRateNotFoundError';
  }
}

export type NbpRate = { rate: string; effectiveDate: string; tableNo: string };
export type NbpClientOptions = { baseUrl?: string; timeoutMs?: number };

const DEFAULT_TIMEOUT_MS = 10_000;
/** Covers every Polish holiday cluster with room to spare (nbp.md §5); the wider window only runs after a 404. */
const WINDOWS_DAYS = [14, 30] as const;

const ZDecimal = z.string().regex(/^\d+\.\d+$/);
const ZRatesResponse = z.object({
  table: z.literal('A'),
  code: z.string(),
  rates: z.array(z.object({ no: z.string().min(1), effectiveDate: z.string().refine(isIsoDate), mid: ZDecimal })).min(1),
});

/**
 * Table A mid rate of the last day before `date` (YYYY-MM-DD, Polish calendar) that has a table: art. 31a,
 * strictly before the tax point. One range request; NBP itself says which days have tables.
 */
export async function fetchRateBefore(currency: string, date: string, options: NbpClientOptions = {}): Promise<NbpRate> {
  const code = currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || code === 'PLN') throw new Error(`not a foreign currency code: ${currency}`);
  if (!isIsoDate(date)) throw new Error(`not a YYYY-MM-DD date: ${date}`);
  for (const days of WINDOWS_DAYS) {
    const rates = await fetchRange(code, addDays(date, -days), addDays(date, -1), options);
    if (!rates) continue;
    const before = rates.filter((r) => r.effectiveDate < date);
    const last = before.reduce<(typeof before)[number] | undefined>((best, r) => (!best || r.effectiveDate > best.effectiveDate ? r : best), undefined);
    if (!last) throw new NbpUnavailableError(`NBP answered ${code} rates that are not before ${date}`);
    return { rate: last.mid, effectiveDate: last.effectiveDate, tableNo: last.no };
  }
  throw new NbpRateNotFoundError(code, date);
}

/** The rates of a closed date range, or null when NBP has none (404). */
async function fetchRange(code: string, from: string, to: string, options: NbpClientOptions) {
  const base = (options.baseUrl ?? config().NBP_BASE_URL).replace(/\/$/, '');
  const url = `${base}/exchangerates/rates/a/${code.toLowerCase()}/${from}/${to}/?format=json`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let status: number;
  let body: string;
  try {
    // The signal also bounds reading the body, so a server that stalls mid-answer times out too.
    const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    status = res.status;
    body = await res.text();
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    throw new NbpUnavailableError(timedOut ? `NBP did not answer within ${timeoutMs} ms` : `NBP unreachable: ${describe(err)}`, { cause: err });
  }
  if (status === 404) return null;
  // 400 means we built a bad request (dates, range): a bug to fix, not an outage to wait out.
  if (status === 400) throw new Error(`NBP refused ${url}: ${body.slice(0, 200)}`);
  if (status !== 200) throw new NbpUnavailableError(`NBP answered HTTP ${status} for ${code}`);
  const parsed = ZRatesResponse.safeParse(parseKeepingDecimals(body));
  if (!parsed.success || parsed.data.code.toUpperCase() !== code) {
    throw new NbpUnavailableError(`NBP answered an unexpected body for ${code}: ${body.slice(0, 200)}`);
  }
  return parsed.data.rates;
}

/** `mid` is a JSON number; turn it into text before JSON.parse so no digit passes through a float. */
function parseKeepingDecimals(body: string): unknown {
  try {
    return JSON.parse(body.replace(/("mid"\s*:\s*)(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g, '$1"$2"'));
  } catch {
    return undefined;
  }
}

const describe = (err: unknown): string =>
  err instanceof Error ? `${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}` : String(err);
