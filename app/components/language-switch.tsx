'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { LOCALE_COOKIE, LOCALES, type Locale } from '@/app/i18n/locale';
import { writePreference } from './cookies';
import { useI18n } from './i18n';

/** Each language named in itself, so that a reader of the other one finds it. */
const NAMES: Record<Locale, string> = { pl: 'Polski', en: 'English' };

/** The language choice, remembered in a cookie; the server renders the next page (and <html lang>) in it. */
export function LanguageSwitch() {
  const { t, locale } = useI18n();
  const router = useRouter();
  const queryClient = useQueryClient();
  const choose = (next: Locale) => {
    writePreference(LOCALE_COOKIE, next);
    queryClient.clear(); // cached answers may hold text of the previous language
    router.refresh();
  };
  return (
    <label className="lang">
      <span className="sr-only">{t.language}</span>
      <select value={locale} onChange={(e) => choose(e.target.value as Locale)} aria-label={t.language}>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
