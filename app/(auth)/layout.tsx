import type { ReactNode } from 'react';
import { LanguageSwitch } from '@/app/components/language-switch';
import { Providers } from '@/app/components/providers';
import { requestLocale } from '@/app/i18n/request-locale';
import '@/app/components/dashboard.css';

export default async function AuthLayout({ children }: { children: ReactNode }) {
  const locale = await requestLocale();
  return (
    <Providers locale={locale}>
      <main className="auth" lang={locale}>
        <LanguageSwitch />
        {children}
      </main>
    </Providers>
  );
}
