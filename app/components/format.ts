import type { Locale } from '@/app/i18n/locale';

const tag = (locale: Locale) => (locale === 'pl' ? 'pl-PL' : 'en-GB');

/** Integer grosze as a localised amount; no float maths beyond display. */
export function formatMoney(grosze: number | null | undefined, currency: string | null | undefined, locale: Locale): string {
  if (grosze === null || grosze === undefined) return '—';
  const sign = grosze < 0 ? '-' : '';
  const abs = Math.abs(grosze);
  const whole = Math.floor(abs / 100).toLocaleString(tag(locale));
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}${whole}${locale === 'pl' ? ',' : '.'}${cents} ${currency ?? ''}`.trim();
}

export const formatDateTime = (d: Date | string | number | null | undefined, locale: Locale) =>
  d === null || d === undefined
    ? '—'
    : new Date(typeof d === 'number' ? d * 1000 : d).toLocaleString(tag(locale), { dateStyle: 'short', timeStyle: 'medium', timeZone: 'Europe/Warsaw' });

/** grosze → the API's decimal text ("12.30") for inputs sent back through /v1 schemas. */
export const toDecimal = (grosze: number) => `${grosze < 0 ? '-' : ''}${Math.floor(Math.abs(grosze) / 100)}.${String(Math.abs(grosze) % 100).padStart(2, '0')}`;

/** The API's decimal text ("-47.49") in the UI's notation, without going through a float. */
export function formatDecimal(text: string | null | undefined, currency: string | null | undefined, locale: Locale): string {
  if (text === null || text === undefined) return '—';
  return `${locale === 'pl' ? text.replace('.', ',') : text} ${currency ?? ''}`.trim();
}
