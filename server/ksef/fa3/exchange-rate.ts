import { AppError } from '@/server/errors';

/** An NBP table A rate as stored with the invoice (domain/nbp.md): `rate` is the mid as decimal text, e.g. "4.2322". */
export type ExchangeRate = { rate: string; date: string; table: string };

const RATE = /^(\d{1,6})(?:\.(\d{1,6}))?$/;

/** The rate in millionths; FA(3) KursWaluty (TIlosci) holds at most 6 decimals. */
export function rateMicros(rate: ExchangeRate): bigint {
  const m = RATE.exec(rate.rate.trim());
  if (!m || !/^\d{4}-\d{2}-\d{2}$/.test(rate.date) || !rate.table.trim()) {
    throw new AppError(
      'invoice_build_failed',
      undefined,
      `exchange rate ${JSON.stringify(rate)} is not an NBP rate with at most 6 decimals, a date and a table number`,
    );
  }
  const micros = BigInt(m[1] ?? '0') * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
  if (micros === 0n) throw new AppError('invoice_build_failed', undefined, 'the exchange rate is zero');
  return micros;
}

/** grosze of the invoice currency → PLN grosze, rounded half away from zero (P_14_xW = round2(P_14_x × rate)). */
export function toPlnGrosze(grosze: number, micros: bigint): number {
  const scaled = BigInt(Math.abs(grosze)) * micros;
  const pln = Number((scaled + 500_000n) / 1_000_000n);
  return grosze < 0 && pln > 0 ? -pln : pln;
}

/** The rate as printed in KursWaluty: the stored text without trailing zeros beyond what NBP published. */
export const formatRate = (rate: ExchangeRate): string => rate.rate.trim();

/** The human note on the rate's source, since FA(3) has no field for its date or table (fa3-mapping.md §13). */
export const describeRate = (currency: string, rate: ExchangeRate): string =>
  `1 ${currency} = ${formatRate(rate)} PLN, średni kurs NBP, tabela A nr ${rate.table.trim()} z dnia ${rate.date}`;
