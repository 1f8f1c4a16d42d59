import { en } from './en';
import { pl, type Dictionary } from './pl';

export type Locale = 'pl' | 'en';
export const LOCALE_COOKIE = 'kr_lang';

/** Polish unless the cookie asks for English. */
export const readLocale = (value: string | undefined): Locale => (value === 'en' ? 'en' : 'pl');
export const dictionaryFor = (locale: Locale): Dictionary => (locale === 'en' ? en : pl);
