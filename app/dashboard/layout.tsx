import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { serverCaller } from '@/server/trpc/server-caller';
import { EarlyAccess } from '@/app/components/early-access';
import { Providers } from '@/app/components/providers';
import { RoleProvider } from '@/app/components/role';
import { Shell } from '@/app/components/shell';
import { requestLocale } from '@/app/i18n/request-locale';
import '@/app/components/dashboard.css';

export const dynamic = 'force-dynamic';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const jar = await cookies();
  const caller = await serverCaller(jar.toString());
  const me = caller ? await caller.account.me().catch(() => null) : null;
  if (!me) redirect('/signin');
  const locale = await requestLocale();
  return (
    <Providers locale={locale}>
      <RoleProvider role={me.role}>
        <Shell email={me.email} mode={me.mode} liveEnabled={me.liveEnabled} role={me.role} accounts={me.accounts} accountId={me.accountId}>
          {me.mode === 'live' && !me.liveEnabled ? <EarlyAccess /> : children}
        </Shell>
      </RoleProvider>
    </Providers>
  );
}
