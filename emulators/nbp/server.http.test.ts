import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startNbpEmulator, type NbpEmulator } from './server';

let nbp: NbpEmulator;
// 2026-06-02 10:00 Warsaw: the table of 2 June is not out yet.
const NOW = new Date('2026-06-02T08:00:00Z');

beforeAll(async () => {
  nbp = await startNbpEmulator({ now: () => NOW });
});
afterAll(() => nbp.close());

const get = (path: string) => fetch(`${nbp.url}/${path}`);

describe('NBP emulator', () => {
  test('answers one currency for one day in NBP shape, mid as a JSON number', async () => {
    const res = await get('exchangerates/rates/a/eur/2026-05-29/?format=json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const text = await res.text();
    expect(text).toContain('"mid":4.2322');
    expect(JSON.parse(text)).toEqual({
      table: 'A',
      currency: 'euro',
      code: 'EUR',
      rates: [{ no: '103/A/NBP/2026', effectiveDate: '2026-05-29', mid: 4.2322 }],
    });
  });

  test('weekends, holidays, unknown currencies and unpublished days are 404 in plain text', async () => {
    for (const path of [
      'exchangerates/rates/a/eur/2026-05-30/',
      'exchangerates/rates/a/eur/2026-06-04/',
      'exchangerates/rates/a/bgn/2026-05-29/',
      'exchangerates/rates/a/eur/2026-06-02/',
      'exchangerates/rates/a/eur/today/',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toBe('404 NotFound - Not Found - Brak danych');
    }
  });

  test('a range lists only publication days, ascending, with running table numbers', async () => {
    const body = (await (await get('exchangerates/rates/a/usd/2026-05-28/2026-06-05/')).json()) as { rates: { no: string; effectiveDate: string }[] };
    expect(body.rates.map((r) => [r.effectiveDate, r.no])).toEqual([
      ['2026-05-28', '102/A/NBP/2026'],
      ['2026-05-29', '103/A/NBP/2026'],
      ['2026-06-01', '104/A/NBP/2026'],
    ]);
  });

  test('rates are deterministic across emulator instances and keep small currencies exact', async () => {
    const other = await startNbpEmulator({ now: () => NOW });
    try {
      const path = 'exchangerates/rates/a/idr/2026-05-01/2026-05-31/';
      const [a, b] = await Promise.all([get(path).then((r) => r.text()), fetch(`${other.url}/${path}`).then((r) => r.text())]);
      expect(a).toBe(b);
      expect(a).toMatch(/"mid":0\.\d{8}[,}]/);
    } finally {
      await other.close();
    }
  });

  test('whole tables, latest and last/n follow the emulator clock', async () => {
    const [latest] = (await (await get('exchangerates/tables/a/')).json()) as { effectiveDate: string; rates: { code: string }[] }[];
    expect(latest?.effectiveDate).toBe('2026-06-01');
    expect(latest?.rates).toHaveLength(32);
    const last = (await (await get('exchangerates/rates/a/chf/last/3/')).json()) as { rates: { effectiveDate: string }[] };
    expect(last.rates.map((r) => r.effectiveDate)).toEqual(['2026-05-28', '2026-05-29', '2026-06-01']);
  });

  test('bad requests are 400 like NBP', async () => {
    expect((await get('exchangerates/rates/a/eur/2026-01-01/2026-06-01/')).status).toBe(400); // over 93 days
    expect((await get('exchangerates/rates/a/eur/2026-06-01/2026-05-01/')).status).toBe(400);
    expect((await get('exchangerates/rates/a/eur/2026-02-30/')).status).toBe(400);
    expect((await get('exchangerates/rates/a/eur/last/256/')).status).toBe(400);
  });

  test('the control endpoint injects 5xx and counts requests', async () => {
    const control = `${nbp.url.replace(/\/api$/, '')}/__control`;
    await fetch(control, { method: 'POST', body: JSON.stringify({ fault: 'error', status: 503 }) });
    expect((await get('exchangerates/rates/a/eur/2026-05-29/')).status).toBe(503);
    const state = (await (await fetch(control)).json()) as { fault: string; requests: number };
    expect(state.fault).toBe('error');
    expect(state.requests).toBeGreaterThan(0);
    await fetch(control, { method: 'POST', body: JSON.stringify({ fault: 'none' }) });
    expect((await get('exchangerates/rates/a/eur/2026-05-29/')).status).toBe(200);
    expect(((await (await fetch(control)).json()) as { requests: number }).requests).toBe(1);
  });
});
