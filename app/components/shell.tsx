'use client';
import { useQueryClient } from '@tanstack/react-query';
import { signOut } from 'next-auth/react';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { may, type MemberRole } from '@/server/accounts/permissions';
import { writePreference } from './cookies';
import { useI18n } from './i18n';
import { LanguageSwitch } from './language-switch';

/** Each page with the permission it needs (server/accounts/permissions.ts); a link the role lacks is not shown. */
const LINKS = [
  ['/dashboard', 'overview', 'read'],
  ['/dashboard/invoices', 'invoices', 'read'],
  ['/dashboard/seller', 'seller', 'manage'],
  ['/dashboard/ksef', 'ksef', 'manage'],
  ['/dashboard/store', 'store', 'manage'],
  ['/dashboard/webhooks', 'webhooks', 'manage'],
  ['/dashboard/api-keys', 'apiKeys', 'manage'],
  ['/dashboard/events', 'events', 'read'],
  ['/dashboard/members', 'members', 'manage'],
  ['/dashboard/exports', 'exports', 'read'],
] as const;

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
  const pathname = usePathname();
  const router = useRouter();
  const queryClient = useQueryClient();
  const setCookie = (name: 'kr_mode' | 'kr_account', value: string) => {
    writePreference(name, value);
    queryClient.clear(); // every cached answer belongs to the previous mode or account
    router.refresh();
  };
  const active = (href: string) => (href === '/dashboard' ? pathname === href : pathname.startsWith(href));
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
        {accounts.length > 1 ? (
          <label className="lang">
            <span className="sr-only">{t.accountSwitch}</span>
            <select value={accountId} onChange={(e) => setCookie('kr_account', e.target.value)} aria-label={t.accountSwitch}>
              {accounts.map((a) => (
                <option key={a.accountId} value={a.accountId}>
                  {a.email ?? a.accountId} · {t.roles[a.role]}
                </option>
              ))}
            </select>
          </label>
        ) : null}
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
      <nav aria-label={t.nav.main} className="nav">
        <ul>
          {LINKS.filter(([, , needs]) => may(role, needs)).map(([href, key]) => (
            <li key={href}>
              <Link href={href} aria-current={active(href) ? 'page' : undefined}>
                {t.nav[key]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="content" className="content">
        {children}
      </main>
    </div>
  );
}
