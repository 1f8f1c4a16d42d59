import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import { createInvoiceDocument } from '../documents/create-invoice';
import { parseOrderInput } from '../orders/order-schema';
import { randomToken } from '../ids';
import { ksefLimitsFor, type KsefGroup } from './rate-limits';

/**
 * Shared by the volume tests and bench/burst.ts: a paid order like a shop's checkout sends (the buyer NIP valid,
 * two rates and shipping), and a check of the request log against KSeF's limits.
 */
export function burstOrder(i: number) {
  return parseOrderInput({
    external_id: `burst-${i}-${randomToken(48)}`,
    number: String(10_000 + i),
    created_at: '2026-11-27T10:00:00Z',
    paid_at: '2026-11-27T10:05:00Z',
    currency: 'PLN',
    payment_method: 'card',
    buyer: { nip: '5260250274', name: 'Kupiec sp. z o.o.', address_line1: 'ul. Długa 5', address_line2: '00-002 Warszawa' },
    lines: [
      { name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1 + (i % 3), unit_price: '49.99', vat_rate: '23' },
      { name: 'Książka', sku: 'KS-7', quantity: 1, unit_price: '39.90', vat_rate: '5' },
    ],
    shipping: [{ name: 'Kurier', price: '15.00', vat_rate: '23' }],
  });
}

/** `n` orders arriving at once, `parallel` API calls at a time; returns the document ids in creation order. */
export async function createBurst(db: Db, scope: Scope, n: number, parallel = 8): Promise<string[]> {
  const ids: string[] = new Array(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) ids[i] = (await createInvoiceDocument(db, scope, burstOrder(i))).document.id;
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return ids;
}

export type LimitBreach = { limiter: string; window: 'second' | 'minute' | 'hour'; max: number; requests: number };

/**
 * Every limiter's recorded requests replayed through KSeF's sliding windows (1 s, 1 min, 1 h): any window that
 * ever held more requests than the limit is a breach. Reads the throttle's own log, so it proves what was sent.
 */
export async function findLimitBreaches(db: Db): Promise<LimitBreach[]> {
  const rows = await db.execute<{ limiter: string; at: string }>(sql`select limiter, (extract(epoch from at) * 1000)::float8 as at from ksef_request_log order by limiter, at`);
  const byLimiter = new Map<string, number[]>();
  for (const r of rows) byLimiter.set(r.limiter, [...(byLimiter.get(r.limiter) ?? []), Number(r.at)]);
  const breaches: LimitBreach[] = [];
  for (const [limiter, ts] of byLimiter) {
    const [environment, , counter] = limiter.split('|') as ['test' | 'demo' | 'prod', string, string];
    const group = (counter.startsWith('other:') ? 'other' : counter) as KsefGroup;
    const values = (await ksefLimitsFor(db, environment))[group];
    for (const [window, span, max] of [
      ['second', 1_000, values.perSecond],
      ['minute', 60_000, values.perMinute],
      ['hour', 3_600_000, values.perHour],
    ] as const) {
      if (!Number.isFinite(max)) continue;
      for (let i = 0; i + max < ts.length; i++) {
        if (ts[i + max]! - ts[i]! < span) {
          breaches.push({ limiter, window, max, requests: max + 1 });
          break;
        }
      }
    }
  }
  return breaches;
}
