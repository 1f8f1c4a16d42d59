'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { may, type MemberRole } from '@/server/accounts/permissions';
import { useI18n } from '../i18n';

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

/** The dashboard's navigation, the current page marked. */
export function NavLinks({ role }: { role: MemberRole }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const active = (href: string) => (href === '/dashboard' ? pathname === href : pathname.startsWith(href));
  return (
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
  );
}
