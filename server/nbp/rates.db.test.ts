import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startNbpEmulator, type NbpEmulator } from '@/emulators/nbp/server';
import { useTestDatabase } from '@/test/db';
import { nbpRates } from '@/server/db/schema';
import { NbpUnavailableError } from './client';
import { getRateForTaxPoint } from './rates';

const t = useTestDatabase();
let nbp: NbpEmulator;
let control: string;
const NOW = new Date('2026-07-01');

beforeAll(async () => {
  nbp = await startNbpEmulator({ now: () => NOW });
  control = `${nbp.url.replace(/\/api$/, '')}/__control`;
});
afterAll(() => nbp.close());
beforeEach(async () => {
  await setFault({ fault: 'none' }); // also zeroes the request count
  await t.db().delete(nbpRates);
});

const setFault = (body: object) => fetch(control, { method: 'POST', body: JSON.stringify(body) });
const requestsSeen = async () => ((await (await fetch(control)).json()) as { requests: number }).requests;
const opts = () => ({ baseUrl: nbp.url, now: () => NOW });

describe('getRateForTaxPoint', () => {
  test('takes the last table before the tax point: 2 June takes the rate of 1 June', async () => {
    const rate = await getRateForTaxPoint(t.db(), 'eur', '2026-06-02', opts());
    expect(rate).toMatchObject({ date: '2026-06-01', table: '104/A/NBP/2026' });
    const rows = await t.db().select().from(nbpRates);
    expect(rows).toEqual([expect.objectContaining({ currency: 'EUR', forDate: '2026-06-02', effectiveDate: '2026-06-01', rate: rate.rate })]);
  });

  test('steps back over the weekend and over Corpus Christi', async () => {
    expect(await getRateForTaxPoint(t.db(), 'EUR', '2026-06-01', opts())).toEqual({
      rate: '4.2322',
      date: '2026-05-29',
      table: '103/A/NBP/2026',
    });
    expect(await getRateForTaxPoint(t.db(), 'EUR', '2026-06-05', opts())).toMatchObject({ date: '2026-06-03', table: '106/A/NBP/2026' });
  });

  test('a second look-up for the same currency and day is served from PostgreSQL', async () => {
    const first = await getRateForTaxPoint(t.db(), 'USD', '2026-06-10', opts());
    const afterFirst = await requestsSeen();
    expect(afterFirst).toBe(1);
    await setFault({ fault: 'error' }); // a cache miss would now fail loudly
    const second = await getRateForTaxPoint(t.db(), 'usd', '2026-06-10', opts());
    expect(second).toEqual(first);
    expect(await requestsSeen()).toBe(afterFirst);
  });

  test('NBP down (500 or hang) throws NbpUnavailableError and caches nothing', async () => {
    await setFault({ fault: 'error', status: 500 });
    await expect(getRateForTaxPoint(t.db(), 'EUR', '2026-06-15', opts())).rejects.toBeInstanceOf(NbpUnavailableError);
    await setFault({ fault: 'hang' });
    await expect(getRateForTaxPoint(t.db(), 'EUR', '2026-06-15', { ...opts(), timeoutMs: 300 })).rejects.toBeInstanceOf(NbpUnavailableError);
    expect(await t.db().select().from(nbpRates).where(eq(nbpRates.currency, 'EUR'))).toEqual([]);
    await setFault({ fault: 'none' });
    expect(await getRateForTaxPoint(t.db(), 'EUR', '2026-06-15', opts())).toMatchObject({ date: '2026-06-12' });
  });

  test("a payment dated before the previous day's table is out is retried later, not served an older rate", async () => {
    // NBP clock: 2 June, 10:00 Warsaw, table of 2 June not out; a payment stamped 3 June needs exactly it.
    const early = await startNbpEmulator({ now: () => new Date('2026-06-02') });
    try {
      const at = { baseUrl: early.url, now: () => new Date('2026-06-02') };
      await expect(getRateForTaxPoint(t.db(), 'EUR', '2026-06-03', at)).rejects.toThrow(/may not be published yet/);
      expect(await t.db().select().from(nbpRates)).toEqual([]);
    } finally {
      await early.close();
    }
  });
});
