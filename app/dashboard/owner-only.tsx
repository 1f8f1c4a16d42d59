import { cookies } from 'next/headers';
import type { ReactNode } from 'react';
import { may } from '@/server/accounts/permissions';
import { serverCaller } from '@/server/trpc/server-caller';
import { ForbiddenNotice } from '@/app/components/forbidden-notice';

/**
 * The layout of every owner-only page: a member whose role lacks `manage` gets the notice instead of the page,
 * on the server, whatever the navigation showed.
 */
export async function OwnerOnly({ children }: { children: ReactNode }) {
  const caller = await serverCaller((await cookies()).toString());
  const me = caller ? await caller.account.me().catch(() => null) : null;
  return me && may(me.role, 'manage') ? children : <ForbiddenNotice />;
}
