import { cookies } from 'next/headers';
import type { ReactNode } from 'react';
import { Providers } from '@/app/components/providers';
import { LOCALE_COOKIE, readLocale } from '@/app/i18n/locale';
import '@/app/components/dashboard.css';

export default async function AuthLayout({ children }: { children: ReactNode }) {
  const locale = readLocale((await cookies()).get(LOCALE_COOKIE)?.value);
  return (
    <Providers locale={locale}>
      <main className="auth" lang={locale}>
        {children}
      </main>
    </Providers>
  );
}
