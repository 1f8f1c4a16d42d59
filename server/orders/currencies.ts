/**
 * Currencies an order may be in: PLN and the currencies of NBP table A (table 103/A/NBP/2026, domain/nbp.md §6).
 * Left out: XDR (an accounting unit, not an order currency) and IDR, whose NBP rate has 8 decimals while
 * FA(3) KursWaluty allows 6. Table A changes over time; edit this list when NBP adds or drops a currency.
 */
export const NBP_TABLE_A_CURRENCIES = [
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CLP',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'ILS',
  'INR',
  'ISK',
  'JPY',
  'KRW',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PHP',
  'RON',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'UAH',
  'USD',
  'ZAR',
] as const;

export const SUPPORTED_CURRENCIES = ['PLN', ...NBP_TABLE_A_CURRENCIES] as const;
export type Currency = (typeof SUPPORTED_CURRENCIES)[number];

export function isSupportedCurrency(code: string): code is Currency {
  return (SUPPORTED_CURRENCIES as readonly string[]).includes(code);
}
