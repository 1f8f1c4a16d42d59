import type { AttentionKind } from './kinds';

/** At most one digest a day; a kind that comes back within a day of its last e-mail waits for the digest too. */
export const DIGEST_INTERVAL_MS = 86_400_000;

export type Notice = { kind: AttentionKind; firstNotifiedAt: Date; lastDigestAt: Date | null; clearedAt: Date | null };

export type NoticePlan = {
  /** `first`: a kind is new (sent at once, with the whole list); `digest`: the daily reminder of what is still open. */
  mail: { type: 'first' | 'digest'; newKinds: AttentionKind[] } | null;
  /** Notices to write (inserted or replaced); the others stay as they are. */
  write: Notice[];
};

/**
 * What to e-mail one account and mode at `now`, given the kinds found (`active`) and what was told before. Pure:
 * the schedule's whole logic, so its tests pass plain times.
 */
export function planNotices(active: readonly AttentionKind[], notices: readonly Notice[], now: Date): NoticePlan {
  const byKind = new Map(notices.map((n) => [n.kind, n]));
  const write: Notice[] = [];
  const dayAgo = now.getTime() - DIGEST_INTERVAL_MS;
  for (const n of notices) if (n.clearedAt === null && !active.includes(n.kind)) write.push({ ...n, clearedAt: now });

  const mailedAt = (n: Notice) => Math.max(n.firstNotifiedAt.getTime(), n.lastDigestAt?.getTime() ?? -Infinity);
  const newKinds = active.filter((k) => {
    const n = byKind.get(k);
    return !n || (n.clearedAt !== null && mailedAt(n) <= dayAgo);
  });
  const lastMailAt = Math.max(-Infinity, ...notices.map(mailedAt));
  const type = newKinds.length > 0 ? 'first' : active.length > 0 && lastMailAt <= dayAgo ? 'digest' : null;

  for (const k of active) {
    const n = byKind.get(k);
    if (newKinds.includes(k)) write.push({ kind: k, firstNotifiedAt: now, lastDigestAt: null, clearedAt: null });
    else if (type) write.push({ ...n!, lastDigestAt: now, clearedAt: null });
    else if (n!.clearedAt !== null) write.push({ ...n!, clearedAt: null });
  }
  return { mail: type ? { type, newKinds } : null, write };
}
