'use client';
import { createContext, useContext, type ReactNode } from 'react';
import { dictionaryFor, type Locale } from '@/app/i18n/locale';
import { pl, type Dictionary } from '@/app/i18n/pl';

const I18nContext = createContext<{ locale: Locale; t: Dictionary }>({ locale: 'pl', t: pl });

export function I18nProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return <I18nContext.Provider value={{ locale, t: dictionaryFor(locale) }}>{children}</I18nContext.Provider>;
}

export const useI18n = () => useContext(I18nContext);
