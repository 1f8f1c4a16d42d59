import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startNbpEmulator, type NbpEmulator } from '@/emulators/nbp/server';
import { fetchRateBefore, NbpRateNotFoundError, NbpUnavailableError } from './client';

let nbp: NbpEmulator;
beforeAll(async () => {
  nbp = await startNbpEmulator({ now: () => new Date('2027-01-15T12:00:00Z') });
});
afterAll(() => nbp.close());

const fault = (body: object) => fetch(`${nbp.url.replace(/\/api$/, '')}/__control`, { method: 'POST', body: JSON.stringify(body) });

describe('fetchRateBefore', () => {
  test.each([
    ['Monday after a weekend', 'EUR', '2026-06-01', '2026-05-29', '103/A/NBP/2026'],
    ['strictly before a working day', 'EUR', '2026-06-02', '2026-06-01', '104/A/NBP/2026'],
    ['over Corpus Christi', 'EUR', '2026-06-05', '2026-06-03', '106/A/NBP/2026'],
    ['over Easter Monday and the weekend', 'usd', '2026-04-07', '2026-04-03', '065/A/NBP/2026'],
    ['over Christmas Eve and Christmas', 'GBP', '2026-12-28', '2026-12-23', '249/A/NBP/2026'],
    ['over New Year into the previous year', 'CHF', '2027-01-02', '2026-12-31', '253/A/NBP/2026'],
  ])('%s', async (_, currency, date, effectiveDate, tableNo) => {
    const rate = await fetchRateBefore(currency, date, { baseUrl: nbp.url });
    expect(rate.effectiveDate).toBe(effectiveDate);
    expect(rate.tableNo).toBe(tableNo);
    expect(rate.rate).toMatch(/^\d+\.\d{4}$/);
  });

  test('keeps the published value exactly', async () => {
    expect((await fetchRateBefore('EUR', '2026-06-01', { baseUrl: nbp.url })).rate).toBe('4.2322');
    expect((await fetchRateBefore('IDR', '2026-06-01', { baseUrl: nbp.url })).rate).toMatch(/^0\.\d{8}$/);
  });

  test('a currency outside table A is reported, not guessed', async () => {
    await expect(fetchRateBefore('BGN', '2026-06-01', { baseUrl: nbp.url })).rejects.toBeInstanceOf(NbpRateNotFoundError);
  });

  test('refuses PLN and malformed input before calling NBP', async () => {
    await expect(fetchRateBefore('PLN', '2026-06-01', { baseUrl: nbp.url })).rejects.toThrow(/foreign currency/);
    await expect(fetchRateBefore('EUR', '2026-6-1', { baseUrl: nbp.url })).rejects.toThrow(/YYYY-MM-DD/);
  });

  test('5xx, a hang and a closed port are NbpUnavailableError', async () => {
    try {
      await fault({ fault: 'error', status: 502 });
      await expect(fetchRateBefore('EUR', '2026-06-01', { baseUrl: nbp.url })).rejects.toBeInstanceOf(NbpUnavailableError);
      await fault({ fault: 'hang' });
      const started = Date.now();
      await expect(fetchRateBefore('EUR', '2026-06-01', { baseUrl: nbp.url, timeoutMs: 300 })).rejects.toThrow(/within 300 ms/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await fault({ fault: 'none' });
    }
    const closed = await startNbpEmulator();
    await closed.close();
    await expect(fetchRateBefore('EUR', '2026-06-01', { baseUrl: closed.url })).rejects.toBeInstanceOf(NbpUnavailableError);
  });

  test('a 200 that is not NBP JSON (a proxy page) is NbpUnavailableError', async () => {
    const proxy = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = proxy.address() as AddressInfo;
      await expect(fetchRateBefore('EUR', '2026-06-01', { baseUrl: `http://127.0.0.1:${port}/api` })).rejects.toBeInstanceOf(NbpUnavailableError);
    } finally {
      proxy.close();
    }
  });
});
