import { en } from './en';
import { pl, type Dictionary } from './pl';

export type Locale = 'pl' | 'en';
export const LOCALES: readonly Locale[] = ['pl', 'en'];
export const LOCALE_COOKIE = 'kr_lang';

const isLocale = (v: string | undefined): v is Locale => v === 'pl' || v === 'en';

/** The browser's first choice among our languages (RFC 9110 quality order); Polish when it names neither. */
function fromAcceptLanguage(header: string | null | undefined): Locale {
  const ranked = (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: tag.split('-')[0], q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((c) => c.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.map((c) => c.lang).find(isLocale) ?? 'pl';
}

/** The language a page is rendered in: the remembered choice (cookie), else the browser's Accept-Language. */
export const readLocale = (cookie: string | undefined, acceptLanguage?: string | null): Locale =>
  isLocale(cookie) ? cookie : fromAcceptLanguage(acceptLanguage);
export const dictionaryFor = (locale: Locale): Dictionary => (locale === 'en' ? en : pl);
