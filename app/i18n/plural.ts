import type { Locale } from './locale';

/** A noun's forms by CLDR plural category; Polish uses one/few/many (1 dokument, 3 dokumenty, 5 dokumentów). */
export type PluralForms = { one: string; few?: string; many?: string; other: string };

const rules = { pl: new Intl.PluralRules('pl'), en: new Intl.PluralRules('en') };

/** The count with its noun in the right form: `{n}` in the chosen form is replaced by the count. */
export function plural(locale: Locale, n: number, forms: PluralForms): string {
  const category = rules[locale].select(n) as keyof PluralForms;
  return (forms[category] ?? forms.other).replace('{n}', n.toLocaleString(locale === 'pl' ? 'pl-PL' : 'en-GB'));
}
