import 'server-only';
import { cookies, headers } from 'next/headers';
import { dictionaryFor, LOCALE_COOKIE, readLocale, type Locale } from './locale';
import type { Dictionary } from './pl';

/** The language of the page being rendered; the root layout's <html lang> and every provider read the same. */
export async function requestLocale(): Promise<Locale> {
  const [jar, head] = await Promise.all([cookies(), headers()]);
  return readLocale(jar.get(LOCALE_COOKIE)?.value, head.get('accept-language'));
}

/** A page's `generateMetadata`: its title in the page's language. */
export const titled = (key: keyof Dictionary['titles']) => async (): Promise<{ title: string }> => ({
  title: dictionaryFor(await requestLocale()).titles[key],
});
