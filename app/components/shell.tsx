'use client';
import { useQueryClient } from '@tanstack/react-query';
import { signOut } from 'next-auth/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import type { MemberRole } from '@/server/accounts/permissions';
import { writePreference } from './cookies';
import { useI18n } from './i18n';
import { LanguageSwitch } from './language-switch';
import { AccountSwitch } from './shell/account-switch';
import { NavLinks } from './shell/nav-links';

/** Header with the navigation, the test/live switch, the language switch and sign-out; the page goes below. */
export function Shell({
  email,
  mode,
  liveEnabled,
  role,
  accounts,
  accountId,
  children,
}: {
  email: string;
  mode: 'test' | 'live';
  liveEnabled: boolean;
  role: MemberRole;
  /** The user's accounts: with more than one (an accountant's clients) the header switches between them. */
  accounts: { accountId: string; email: string | null; role: MemberRole }[];
  accountId: string;
  children: ReactNode;
}) {
  const { t, locale } = useI18n();
  const router = useRouter();
  const queryClient = useQueryClient();
  const setCookie = (name: 'kr_mode' | 'kr_account', value: string) => {
    writePreference(name, value);
    queryClient.clear(); // every cached answer belongs to the previous mode or account
    router.refresh();
  };
  return (
    <div className={`shell mode-${mode}`} lang={locale}>
      <a className="skip" href="#content">
        {t.skipToContent}
      </a>
      <header className="topbar">
        <Link href="/dashboard" className="brand">
          {t.brand}
        </Link>
        <fieldset className="switch" aria-label={t.mode.label}>
          <legend className="sr-only">{t.mode.label}</legend>
          {(['test', 'live'] as const).map((m) => (
            <button key={m} type="button" aria-pressed={mode === m} onClick={() => mode !== m && setCookie('kr_mode', m)}>
              {t.mode[m]}
              {m === 'live' && !liveEnabled ? ' β' : ''}
            </button>
          ))}
        </fieldset>
        <AccountSwitch accounts={accounts} accountId={accountId} onSwitch={(id) => setCookie('kr_account', id)} />
        <LanguageSwitch />
        <span className="who" title={email}>
          {email}
        </span>
        <button type="button" className="link-button" onClick={() => void signOut({ callbackUrl: '/signin' })}>
          {t.signOut}
        </button>
      </header>
      {mode === 'test' ? (
        <div className="test-banner">
          {t.mode.label}: {t.mode.test}
        </div>
      ) : null}
      <NavLinks role={role} />
      <main id="content" className="content">
        {children}
      </main>
    </div>
  );
}
