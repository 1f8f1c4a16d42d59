import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { ksefSessions } from '@/server/db/schema';
import { newId } from '@/server/ids';
import type { KsefClient } from '@/server/ksef/client';
import { openOnlineSession, type OnlineSession } from '@/server/ksef/online-session';
import { sealJson, unsealJson } from '@/server/security/sealed-json';

/** Sessions are left open until shortly before KSeF's 12 h expiry, then replaced. */
const REOPEN_BEFORE_MS = 10 * 60_000;

/**
 * The scope's open online session, reused across documents (its AES key sealed in PostgreSQL so that any worker
 * can send in it), or a new one. Callers hold the seller's sending turn (sending-turn.ts), so two sessions are not opened at once.
 */
export async function onlineSessionFor(db: Db, scope: Scope, client: KsefClient, accessToken: string): Promise<OnlineSession> {
  const [row] = await db
    .select()
    .from(ksefSessions)
    .where(
      and(
        inScope(ksefSessions, scope),
        eq(ksefSessions.kind, 'online'),
        eq(ksefSessions.status, 'open'),
        gt(ksefSessions.validUntil, new Date(Date.now() + REOPEN_BEFORE_MS)),
      ),
    )
    .orderBy(desc(ksefSessions.openedAt))
    .limit(1);
  if (row) {
    const key = unsealJson<{ aesKey: string; iv: string }>(row.secret);
    return { referenceNumber: row.referenceNumber, validUntil: row.validUntil!, ...key };
  }
  const session = await openOnlineSession(client, accessToken);
  await db.insert(ksefSessions).values({
    id: newId('kss'),
    accountId: scope.accountId,
    mode: scope.mode,
    kind: 'online',
    referenceNumber: session.referenceNumber,
    secret: sealJson({ aesKey: session.aesKey, iv: session.iv }),
    validUntil: session.validUntil,
  });
  return session;
}

/** KSeF says the session is gone (closed, expired): stop using it. */
export async function retireSession(db: Db, referenceNumber: string): Promise<void> {
  await db.update(ksefSessions).set({ status: 'closed', closedAt: new Date() }).where(eq(ksefSessions.referenceNumber, referenceNumber));
}
