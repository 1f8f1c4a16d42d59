import 'server-only';
import { getServerSession } from 'next-auth';
import { findMembership, type Membership } from '@/server/accounts/find-membership';
import { may } from '@/server/accounts/permissions';
import { db as sharedDb, type DbOrTx } from '@/server/db/client';
import type { Mode } from '@/server/db/schema';
import type { Scope } from '@/server/db/scope';
import { authOptions } from './next-auth';
import { currentSessionUser } from './session-validity';

/** The dashboard's test/live switch lives in this cookie; anything but `live` is test mode. */
export const MODE_COOKIE = 'kr_mode';

/** The account switch's choice, for a user who is a member of several accounts (findMembership checks it). */
export const ACCOUNT_COOKIE = 'kr_account';

export function readAccountChoice(cookieHeader: string | null | undefined): string | null {
  return /(?:^|;\s*)kr_account=(acct_[0-9A-Za-z]{1,64})(?:;|$)/.exec(cookieHeader ?? '')?.[1] ?? null;
}

export function readMode(cookieHeader: string | null | undefined): Mode {
  const match = /(?:^|;\s*)kr_mode=(test|live)(?:;|$)/.exec(cookieHeader ?? '');
  return match?.[1] === 'live' ? 'live' : 'test';
}

export type DashboardSession = { userId: string | null; mode: Mode; accountId?: string | null };

/** Who is signed in (next-auth's session), which mode the switch shows and which account the user chose. */
export async function readDashboardSession(cookieHeader: string | null | undefined): Promise<DashboardSession> {
  const session = (await getServerSession(authOptions())) as { userId?: string; signedInAt?: number } | null;
  return {
    userId: await currentSessionUser(sharedDb(), session?.userId, session?.signedInAt),
    mode: readMode(cookieHeader),
    accountId: readAccountChoice(cookieHeader),
  };
}

export type DashboardAccess = { ok: true; membership: Membership; scope: Scope } | { ok: false; reason: 'signed_out' | 'live_disabled' };

/**
 * The one way a dashboard session becomes a Scope (invariant 5): the user's membership (in the chosen account) and the switch's mode;
 * live mode is refused until the account is enabled for it (early access).
 */
export async function resolveDashboardScope(db: DbOrTx, userId: string | null, mode: Mode, accountId: string | null = null): Promise<DashboardAccess> {
  const membership = userId ? await findMembership(db, userId, accountId) : null;
  if (!membership) return { ok: false, reason: 'signed_out' };
  if (mode === 'live' && !membership.liveEnabled) return { ok: false, reason: 'live_disabled' };
  return { ok: true, membership, scope: { accountId: membership.accountId, mode } };
}

/**
 * A dashboard download's scope (files, registers, archives, the invoice list's CSV): the session's membership and
 * mode, with a role that may read documents (every role: server/accounts/permissions.ts); else a plain refusal.
 */
export async function downloadScope(db: DbOrTx, session: DashboardSession): Promise<{ ok: true; scope: Scope } | { ok: false; refusal: Response }> {
  const access = await resolveDashboardScope(db, session.userId, session.mode, session.accountId);
  if (!access.ok)
    return {
      ok: false,
      refusal: new Response(access.reason === 'signed_out' ? 'sign in first' : 'live mode is not enabled', {
        status: access.reason === 'signed_out' ? 401 : 403,
      }),
    };
  if (!may(access.membership.role, 'read')) return { ok: false, refusal: new Response('your role may not read documents', { status: 403 }) };
  return { ok: true, scope: access.scope };
}
